import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempProject } from '@cairn/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMem0Backend, createMem0RetrievalAdapter } from './index';
import { unit, writeWorkspaceFile } from './test-fixtures';

let home: string;
const saved = { HOME: process.env.HOME, MEM0_DIR: process.env.MEM0_DIR, fetch: globalThis.fetch };
const fetched: string[] = [];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cairn-mem0-home-'));
  process.env.HOME = home;
  delete process.env.MEM0_DIR;
  globalThis.fetch = ((input: string | URL | Request) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return Promise.reject(new Error('no network in this test'));
  }) as typeof fetch;
});

afterAll(async () => {
  process.env.HOME = saved.HOME;
  if (saved.MEM0_DIR === undefined) delete process.env.MEM0_DIR;
  else process.env.MEM0_DIR = saved.MEM0_DIR;
  globalThis.fetch = saved.fetch;
  await rm(home, { recursive: true, force: true });
});

it('runs Mem0 OSS with nothing written to HOME or the cwd, and no telemetry sent', async () => {
  expect(homedir()).toBe(home);
  const cwdBefore = await readdir(process.cwd());
  const { root, cleanup } = await makeTempProject();
  try {
    await writeWorkspaceFile(root, '2026-03-01.md', unit(1, 'The bilby scheduler runs hourly.'));
    const backend = createMem0Backend();
    await backend.write(root, '# Project memory\n\nThe bilby scheduler owns cron.\n');
    expect((await backend.search(root, { query: 'bilby scheduler' })).length).toBeGreaterThan(0);
    await backend.close();
    const adapter = createMem0RetrievalAdapter({ rootDir: root });
    expect(
      (await adapter.recall({ agentId: 'a', query: 'bilby scheduler' })).length,
    ).toBeGreaterThan(0);
    await adapter.close();
    expect(backend.warnings).toEqual([]);
    expect(process.env.MEM0_TELEMETRY).toBe('false');
    expect(await readdir(join(root, '.cairn', 'index', 'mem0'))).toContain('config.json');
  } finally {
    await cleanup();
  }
  expect(await readdir(home)).toEqual([]);
  expect(existsSync(join(home, '.mem0'))).toBe(false);
  expect(await readdir(process.cwd())).toEqual(cwdBefore);
  expect(fetched).toEqual([]);
});
