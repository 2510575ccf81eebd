import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileBackend } from '@cairn/backend-file';
import { createHashEmbedder } from '@cairn/core';
import { describeMemoryBackend, expectCode, tempProjectPerTest } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createMem0Backend, type Mem0Backend, mem0Capabilities } from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

describeMemoryBackend({
  name: 'mem0 (OSS, hash embedder)',
  capabilities: mem0Capabilities,
  // Storage is the file backend's; mirroring multi-megabyte writes entry by entry is tested apart.
  create: () => createMem0Backend({ embedder: createHashEmbedder(), syncOnWrite: false }),
  cleanup: (backend) => (backend as Mem0Backend).close(),
});

describe('mem0 backend', () => {
  const project = tempProjectPerTest((root) =>
    writeWorkspaceFile(root, 'MEMORY.md', '# Project memory\n\nNotes live here.\n'),
  );
  const open = (options: Parameters<typeof createMem0Backend>[0] = {}) =>
    // The engine composes the file index as the fallback; so does this test.
    project.closeAfter(createMem0Backend(options, { fallback: createFileBackend }));

  it('mirrors units with their ids, review state and place, and maps hits back', async () => {
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      `${unit(1, 'Deploys use the blue-green strategy on kubernetes.', { category: 'decision' })}${unit(2, 'The staging database is postgres 16.')}`,
    );
    const backend = open();
    const stats = await backend.sync(project.root);
    expect(stats.chunksAdded).toBe(3);
    const [hit] = await backend.search(project.root, { query: 'blue-green deploys kubernetes' });
    expect(hit).toMatchObject({
      path: '2026-03-01.md',
      kind: 'UNIT',
      memoryId: unitId(1),
      category: 'decision',
      startLine: 1,
      endLine: 3,
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    expect(hit?.snippet).toContain('blue-green');
    expect(hit?.snippet).not.toContain('cairn:memory');
    expect(backend.warnings).toEqual([]);
  });

  it('syncs incrementally: unchanged files add nothing, edits replace, removals delete', async () => {
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      `${unit(1, 'Alpha quokka fact.')}${unit(2, 'Beta wombat fact.')}`,
    );
    const backend = open();
    expect((await backend.sync(project.root)).chunksAdded).toBe(3);
    expect(await backend.sync(project.root)).toMatchObject({
      chunksAdded: 0,
      chunksDeleted: 0,
      filesChanged: 0,
    });

    // Unit 2 deprecated, unit 1 unchanged: one entry replaced, and deprecated units leave default search.
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      `${unit(1, 'Alpha quokka fact.')}${unit(2, 'Beta wombat fact.', { review: 'deprecated' })}`,
    );
    expect(await backend.sync(project.root)).toMatchObject({ chunksAdded: 1, chunksDeleted: 1 });
    const ids = async (filters = {}) =>
      (await backend.search(project.root, { query: 'beta wombat', filters })).map(
        (h) => h.memoryId,
      );
    expect(await ids()).not.toContain(unitId(2));
    expect(await ids({ includeDeprecated: true })).toContain(unitId(2));

    // The unit removed from the file is deleted from Mem0.
    await writeWorkspaceFile(project.root, '2026-03-01.md', unit(1, 'Alpha quokka fact.'));
    expect(await backend.sync(project.root)).toMatchObject({ chunksAdded: 0, chunksDeleted: 1 });
    expect(await ids({ includeDeprecated: true })).not.toContain(unitId(2));
  });

  it('a fresh instance reuses the mirror; rebuild clears and re-adds', async () => {
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      unit(1, 'Quokkas rotate the keys monthly.'),
    );
    const first = open();
    expect((await first.sync(project.root)).chunksAdded).toBe(2);
    await first.close();
    const again = open();
    expect((await again.sync(project.root)).chunksAdded).toBe(0);
    const rebuilt = await again.rebuild(project.root);
    expect(rebuilt.chunksAdded).toBe(2);
    expect((await again.search(project.root, { query: 'quokkas rotate keys' })).length).toBe(1);
  });

  it('applies kind, category, review, path and date filters', async () => {
    await writeWorkspaceFile(
      project.root,
      '2026-03-01.md',
      `${unit(1, 'Quokka release notes: version one.', { category: 'fact' })}${unit(2, 'Quokka release plan: decided.', { category: 'decision', createdAt: '2026-04-01T00:00:00.000Z', review: 'draft' })}`,
    );
    const backend = open();
    const ids = async (filters: object) =>
      (await backend.search(project.root, { query: 'quokka release', filters }))
        .map((h) => h.memoryId)
        .sort();
    expect(await ids({ category: ['decision'] })).toEqual([unitId(2)]);
    expect(await ids({ review: ['approved'] })).toEqual([unitId(1)]);
    expect(await ids({ since: '2026-03-15' })).toEqual([unitId(2)]);
    expect(await ids({ until: '2026-03-15' })).toEqual([unitId(1)]);
    expect(await ids({ path: '2026-04' })).toEqual([]);
    expect(await ids({ kind: ['RAW'] })).toEqual([]);
  });

  it('mirrors after a write and keeps mem0 files under .cairn/index/mem0', async () => {
    const backend = open();
    await backend.write(
      project.root,
      '# Project memory\n\nThe wallaby cluster runs in Frankfurt.\n',
    );
    const files = await readdir(join(project.root, '.cairn', 'index', 'mem0'));
    expect(files).toEqual(expect.arrayContaining(['config.json', 'history.db']));
    expect(files.some((f) => /^vectors-[0-9a-f]{12}\.db$/.test(f))).toBe(true);
    expect(files.some((f) => /^mirror-[0-9a-f]{16}\.json$/.test(f))).toBe(true);
    const [hit] = await backend.search(project.root, { query: 'wallaby cluster frankfurt' });
    expect(hit).toMatchObject({ path: 'MEMORY.md', kind: 'RAW' });
  });

  it('falls back to the file index with a warning when mem0ai cannot be loaded', async () => {
    const warnings: string[] = [];
    const backend = open({
      loadModules: () => Promise.reject(new Error('Cannot find package mem0ai')),
      onWarning: (m) => warnings.push(m),
    });
    await backend.write(project.root, '# Project memory\n\nThe numbat service owns billing.\n');
    const [hit] = await backend.search(project.root, { query: 'numbat billing' });
    expect(hit?.snippet).toContain('numbat');
    expect(warnings.join('\n')).toContain('pnpm add mem0ai');
    const error = await expectCode(backend.sync(project.root), 'BACKEND_UNAVAILABLE');
    expect(error.hint).toContain('pnpm add mem0ai');
  });

  it('rejects bad options and bad search input with typed errors', async () => {
    expect(() => createMem0Backend({ mode: 'cloud' as never })).toThrow(/mode/);
    expect(() => createMem0Backend({ scope: { userId: 'has space' } })).toThrow(/scope.userId/);
    expect(() => createMem0Backend({ scope: {} })).toThrow(/at least one/);
    expect(() => createMem0Backend({ bogus: 1 } as never)).toThrow(/unknown option/);
    expect(() => createMem0Backend({ infer: true })).toThrow(/llm/);
    await expectCode(open().search(project.root, { query: '' }), 'INVALID_INPUT');
  });
});
