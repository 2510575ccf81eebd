import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getMemoryBackend } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from './open-cairn';

// Real LanceDB (a devDependency here): the engine imports @cairn/backend-lancedb itself.
let projects: TempProject[];
let opened: Cairn[];
beforeEach(() => {
  projects = [];
  opened = [];
});
afterEach(async () => {
  await Promise.all(opened.map((cairn) => cairn.backend.close?.()));
  await Promise.all(projects.map((project) => project.cleanup()));
});

/** A project configured for LanceDB with its own database folder (`uri`, project-local). */
async function lancedbProject(uri: string): Promise<string> {
  const project = await makeTempProject();
  projects.push(project);
  await mkdir(join(project.root, '.cairn'), { recursive: true });
  await writeFile(
    join(project.root, '.cairn', 'config.json'),
    JSON.stringify({ memoryBackendType: 'lancedb', memoryBackendOptions: { uri } }),
  );
  return project.root;
}

async function openAndRemember(root: string, fact: string): Promise<Cairn> {
  const cairn = await openCairn(root, { env: {}, homeDir: join(root, 'home') });
  opened.push(cairn);
  await cairn.init();
  await cairn.write(`# Memory\n\n${fact}\n`);
  return cairn;
}

describe('openCairn with an optional backend configured', () => {
  it('loads the package itself: recall goes through LanceDB, with no fallback warning', async () => {
    expect(getMemoryBackend('lancedb')).toBeUndefined();
    const root = await lancedbProject('lance-db');
    const cairn = await openAndRemember(root, 'The deploy script lives in tools/ship.sh.');
    const hits = await cairn.search({ query: 'deploy script' });
    expect(hits[0]?.snippet).toContain('tools/ship.sh');
    expect(cairn.backend.type).toBe('lancedb');
    expect(existsSync(join(root, 'lance-db'))).toBe(true);
    expect(cairn.warnings).toEqual([]);
    expect((await cairn.status()).backend).toMatchObject({
      requested: 'lancedb',
      resolved: 'lancedb',
    });
  });

  it('gives two projects in one process their own backend, built with their own options', async () => {
    const first = await lancedbProject('db-first');
    const second = await lancedbProject('db-second');
    const a = await openAndRemember(first, 'Alpha uses tabs.');
    const b = await openAndRemember(second, 'Beta uses spaces.');
    expect((await a.search({ query: 'tabs' }))[0]?.snippet).toContain('Alpha uses tabs.');
    expect((await b.search({ query: 'spaces' }))[0]?.snippet).toContain('Beta uses spaces.');
    expect(existsSync(join(first, 'db-first'))).toBe(true);
    expect(existsSync(join(second, 'db-second'))).toBe(true);
    expect(existsSync(join(second, 'db-first'))).toBe(false);
    expect(a.backend).not.toBe(b.backend);
    expect([...a.warnings, ...b.warnings]).toEqual([]);
  });
});
