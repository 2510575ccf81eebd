import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSearchIndex } from '@cairn/backend-file';
import {
  cairnIndexPath,
  cairnStatePath,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  memoryWorkspacePath,
  type ResolvedSettings,
} from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';
import { openLineageStore } from '../lineage';
import { settingsFindings } from './settings-checks';
import { MAX_MEMORY_FILE_BYTES } from './workspace-checks';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const open = () =>
  openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC' },
  });
const memoryFile = (name: string) => join(memoryWorkspacePath(project.root), name);

/** Overwrites the middle of a database file: the header survives, the pages do not. */
async function corrupt(path: string): Promise<void> {
  const bytes = await readFile(path);
  bytes.fill(0x41, 100, Math.min(bytes.length, 8192));
  await writeFile(path, bytes);
}

describe('doctor', () => {
  it('is ok on a fresh workspace and creates no database', async () => {
    const cairn = await open();
    await cairn.init();
    const report = await cairn.doctor();
    expect(report).toMatchObject({ ok: true, findings: [], issues: [] });
    expect(existsSync(join(cairnStatePath(project.root), 'lineage.db'))).toBe(false);
    expect(existsSync(join(cairnStatePath(project.root), 'heads.db'))).toBe(false);
  });

  it('reports a corrupt lineage.db as an error, without throwing or touching the memory', async () => {
    const cairn = await open();
    await cairn.init();
    openLineageStore(project.root).close();
    const lineage = join(cairnStatePath(project.root), 'lineage.db');
    expect((await cairn.doctor()).ok).toBe(true);
    await corrupt(lineage);
    const before = await snapshotTree(memoryWorkspacePath(project.root));
    const report = await cairn.doctor();
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      expect.objectContaining({
        severity: 'error',
        area: 'database',
        path: '.cairn/state/lineage.db',
        // The advice names the commands that make and restore a backup.
        fix: expect.stringMatching(/`cairn import <archive>`.*`cairn export`/),
      }),
    ]);
    expect(await snapshotTree(memoryWorkspacePath(project.root))).toEqual(before);
  });

  it('reports a file that is not a database, and a damaged index as derived', async () => {
    const cairn = await open();
    await cairn.init();
    await mkdir(cairnStatePath(project.root), { recursive: true });
    await writeFile(join(cairnStatePath(project.root), 'heads.db'), 'not a database'.repeat(80));
    const index = openSearchIndex(project.root);
    await index.rebuild();
    index.close();
    await corrupt(join(cairnIndexPath(project.root), 'search.sqlite'));
    const report = await cairn.doctor();
    expect(report.findings.map((f) => [f.severity, f.area, f.path])).toEqual([
      ['error', 'database', '.cairn/state/heads.db'],
      ['warning', 'index', '.cairn/index/search.sqlite'],
    ]);
    expect(report.findings[0]?.message).toMatch(/SQLITE_NOTADB/);
    expect(report.findings[1]?.fix).toMatch(/cairn reindex/);
    expect(cairn.workingHealth()).toMatchObject({ pending: [], headsError: expect.any(String) });
  });

  it('reports binary, non-UTF-8 and oversized memory files', async () => {
    const cairn = await open();
    await cairn.init();
    await writeFile(memoryFile('2026-01-01.md'), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]));
    await writeFile(memoryFile('2026-01-02.md'), Buffer.from('caf\xe9 au lait\n', 'latin1'));
    await writeFile(memoryFile('2026-01-03.md'), 'x'.repeat(MAX_MEMORY_FILE_BYTES + 1));
    const report = await cairn.doctor();
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => [f.severity, f.path, f.message.slice(0, 24)])).toEqual([
      ['error', '.cairn/memory/2026-01-01.md', 'the file holds NUL bytes'],
      ['error', '.cairn/memory/2026-01-02.md', 'the file is not valid UT'],
      ['warning', '.cairn/memory/2026-01-03.md', `the file has ${MAX_MEMORY_FILE_BYTES + 1} byt`],
    ]);
  });

  it('reports unbalanced head markers and a runaway head', async () => {
    const cairn = await open();
    await cairn.init();
    const twice = `${HEAD_START_MARKER}\na\n${HEAD_END_MARKER}\n${HEAD_START_MARKER}\nb\n${HEAD_END_MARKER}\n`;
    await writeFile(memoryFile('MEMORY.md'), twice);
    let report = await cairn.doctor();
    expect(report.findings).toEqual([
      expect.objectContaining({ path: '.cairn/memory/MEMORY.md', severity: 'warning' }),
    ]);
    expect(report.findings[0]?.message).toMatch(/unbalanced \(2 ×/);
    const budget = cairn.settings.limits.headTokens * 4;
    await writeFile(
      memoryFile('MEMORY.md'),
      `# Memory\n${HEAD_START_MARKER}\n${'- note\n'.repeat(budget)}${HEAD_END_MARKER}\n`,
    );
    report = await cairn.doctor();
    expect(report.findings[0]?.message).toMatch(/^runaway head: /);
    await mkdir(memoryFile('threads'), { recursive: true });
    await writeFile(memoryFile('MEMORY.md'), `${HEAD_END_MARKER}\n${HEAD_START_MARKER}\n`);
    report = await cairn.doctor();
    expect(report.findings[0]?.message).toMatch(/end before start/);
  });

  it('turns ignored untrusted settings into warnings (the trust plug)', () => {
    const resolved = {
      trust: { ignored: [{ key: 'embedding.baseUrl', reason: 'sends data off the machine' }] },
    } as unknown as ResolvedSettings;
    expect(settingsFindings(resolved)).toEqual([
      expect.objectContaining({ severity: 'warning', area: 'settings' }),
    ]);
    expect(settingsFindings({} as ResolvedSettings)).toEqual([]);
  });
});

describe('store sizes', () => {
  it('adds up each store under .cairn/ and never follows a link out', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.add({ text: 'The deploy script lives in ops/deploy.sh.' });
    const outside = join(project.root, 'outside.bin');
    await writeFile(outside, Buffer.alloc(50_000));
    await mkdir(cairnIndexPath(project.root), { recursive: true });
    await symlink(outside, join(cairnIndexPath(project.root), 'linked.bin'));
    const report = await cairn.doctor();
    cairn.closeWorking();
    const byStore = Object.fromEntries(report.stores.map((s) => [s.store, s]));
    const memoryBytes = (await readFile(memoryFile('MEMORY.md'))).length;
    expect(byStore.memory!.files).toBeGreaterThanOrEqual(3);
    expect(byStore.memory!.bytes).toBeGreaterThan(memoryBytes);
    expect(byStore.index!.bytes).toBeLessThan(50_000);
    expect(Object.keys(byStore)).toEqual(['memory', 'lineage', 'heads', 'state', 'index']);
  });
});
