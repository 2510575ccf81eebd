import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createFileBackend } from '@cairn/backend-file';
import { cairnIndexPath, createHashEmbedder } from '@cairn/core';
import {
  describeMemoryBackend,
  expectCode,
  snapshotTree,
  tempProjectPerTest,
} from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createLancedbBackend, type LancedbBackend, lancedbCapabilities } from './index';
import { countingEmbedder, unit, unitId, writeWorkspaceFile } from './test-fixtures';

describeMemoryBackend({
  name: 'lancedb',
  capabilities: lancedbCapabilities,
  create: () => createLancedbBackend(),
  cleanup: (backend) => (backend as LancedbBackend).close(),
  processFactory: {
    module: new URL('../dist/index.js', import.meta.url).href,
    exportName: 'createLancedbBackend',
  },
});

describe('lancedb backend search', () => {
  const project = tempProjectPerTest(async (root) => {
    await writeWorkspaceFile(
      root,
      '2026-03-01.md',
      [
        unit(1, 'We chose pnpm for the monorepo.', { category: 'decision' }),
        unit(2, 'The staging database is Postgres 16.', { category: 'fact', review: 'draft' }),
        unit(3, 'Old: we used yarn for the monorepo.', {
          category: 'decision',
          review: 'deprecated',
        }),
        unit(4, 'Pnpm lockfiles are reviewed weekly.', {
          category: 'fact',
          createdAt: '2026-04-02T09:00:00.000Z',
        }),
      ].join('\n'),
    );
    await writeWorkspaceFile(
      root,
      'threads/main.md',
      '# main\n\nStatus: migrating the monorepo to pnpm.\n',
    );
  });
  const open = (options: Parameters<typeof createLancedbBackend>[0] = {}) =>
    // The engine composes the file index as the fallback; so does this test.
    project.closeAfter(createLancedbBackend(options, { fallback: createFileBackend }));

  it('stores the index under .cairn/index/lancedb and keeps markers out of snippets', async () => {
    const hits = await open().search!(project.root, { query: 'pnpm monorepo' });
    expect(existsSync(join(cairnIndexPath(project.root), 'lancedb'))).toBe(true);
    expect(hits.map((h) => h.memoryId ?? h.path)).toEqual(
      expect.arrayContaining([unitId(1), unitId(4), 'threads/main.md']),
    );
    expect(hits.map((h) => h.memoryId)).not.toContain(unitId(3));
    for (const hit of hits) expect(hit.snippet).not.toContain('cairn:memory');
  });

  it('filters by category, kind, review, date and path', async () => {
    const backend = open();
    const ids = async (filters: object) =>
      (await backend.search!(project.root, { query: 'pnpm monorepo database', filters }))
        .map((h) => h.memoryId ?? h.path)
        .sort();
    expect(await ids({ category: ['fact'] })).toEqual([unitId(2), unitId(4)]);
    expect(await ids({ kind: ['RAW'] })).toEqual(['threads/main.md']);
    expect(await ids({ review: ['deprecated'] })).toEqual([unitId(3)]);
    expect(await ids({ review: ['draft'], includeDeprecated: true })).toEqual([
      unitId(2),
      unitId(3),
    ]);
    expect(await ids({ since: '2026-04-01' })).toEqual([unitId(4)]);
    expect(await ids({ path: 'threads/' })).toEqual(['threads/main.md']);
  });

  it('refreshes incrementally: only changed chunks are embedded, deleted ones leave', async () => {
    const embedder = countingEmbedder(createHashEmbedder());
    const backend = open({ embedder });
    const first = await backend.refresh(project.root);
    expect(first.chunksEmbedded).toBe(5);
    expect(await backend.refresh(project.root)).toMatchObject({ filesRead: 0, chunksWritten: 0 });
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      [
        unit(1, 'We chose pnpm for the monorepo.', { category: 'decision' }),
        unit(4, 'Pnpm lockfiles are reviewed every Friday.', { category: 'fact' }),
        unit(5, 'Renovate opens dependency pull requests.', { category: 'fact' }),
      ].join('\n'),
    );
    const before = embedder.count();
    const second = await backend.refresh(project.root);
    // Unit 4 changed text and unit 5 is new; unit 1 moved nowhere and is skipped.
    expect(embedder.count() - before).toBe(2);
    expect(second).toMatchObject({ filesChanged: 1, chunksDeleted: 2, chunksEmbedded: 2 });
    const hits = await backend.search!(project.root, {
      query: 'yarn staging postgres',
      filters: { includeDeprecated: true },
    });
    expect(hits.map((h) => h.memoryId)).not.toContain(unitId(2));
    expect(hits.map((h) => h.memoryId)).not.toContain(unitId(3));
  });

  it('rebuilds when the embedder changes, never mixing vectors', async () => {
    const warnings: string[] = [];
    await open({ embedder: { id: 'hash', dimensions: 64 } }).refresh(project.root);
    const other = open({
      embedder: { id: 'hash', dimensions: 128 },
      onWarning: (m) => warnings.push(m),
    });
    const stats = await other.refresh(project.root);
    expect(stats.chunksEmbedded).toBe(5);
    expect(warnings.join('\n')).toMatch(/rebuilding the LanceDB index .*hash:.*:64/);
    expect((await other.search!(project.root, { query: 'pnpm' })).length).toBeGreaterThan(0);
  });

  it('refuses a changed embedder with CONFLICT when asked to, and search falls back', async () => {
    await open({ embedder: { id: 'hash', dimensions: 64 } }).refresh(project.root);
    const strict = open({ embedder: { id: 'hash', dimensions: 128 }, onEmbedderChange: 'error' });
    await expectCode(strict.refresh(project.root), 'CONFLICT');
    const hits = await strict.search!(project.root, { query: 'pnpm' });
    expect(hits.length).toBeGreaterThan(0);
    expect(strict.warnings.join('\n')).toContain('CONFLICT');
  });

  it('falls back to the file index with a clear warning when LanceDB is not installed', async () => {
    const missing = Object.assign(new Error("Cannot find package '@lancedb/lancedb'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const backend = open({ loadModules: () => Promise.reject(missing) });
    const hits = await backend.search!(project.root, { query: 'pnpm monorepo' });
    expect(hits.length).toBeGreaterThan(0);
    expect(backend.warnings[0]).toMatch(
      /BACKEND_UNAVAILABLE.*pnpm add @lancedb\/lancedb apache-arrow/,
    );
    expect(existsSync(join(cairnIndexPath(project.root), 'lancedb'))).toBe(false);
  });

  it('rejects bad options and bad queries with INVALID_INPUT and writes nothing', async () => {
    expect(() => createLancedbBackend({ vectorIndexThreshold: 10 })).toThrow(
      /vectorIndexThreshold/,
    );
    expect(() => createLancedbBackend({ nope: 1 } as never)).toThrow(/unknown option/);
    const before = await snapshotTree(project.root);
    await expectCode(open().search!(project.root, { query: '' }), 'INVALID_INPUT');
    await expectCode(open().search!(project.root, { query: 'x', limit: 0 }), 'INVALID_INPUT');
    expect(await snapshotTree(project.root)).toEqual(before);
  });
});
