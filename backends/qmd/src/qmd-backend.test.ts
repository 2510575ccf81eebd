import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnIndexPath } from '@cairn/core';
import { describeMemoryBackend, tempProjectPerTest } from '@cairn/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createQmdBackend,
  defaultCollectionName,
  type QmdBackend,
  QmdIndex,
  qmdCapabilities,
  resolveQmdOptions,
} from './index';
import { workspaceSignature } from './markdown-signature';
import {
  loggedCommands,
  realQmd,
  recordingQmd,
  unit,
  unitId,
  writeWorkspaceFile,
} from './test-fixtures';

const command = [...(await realQmd())];

/** Drives the project's qmd index directly, as a user running qmd by hand would. */
const qmdIndexOf = (root: string) =>
  new QmdIndex(
    join(cairnIndexPath(root), 'qmd'),
    command as [string, ...string[]],
    resolveQmdOptions(),
    () => {},
  );

describeMemoryBackend({
  name: 'qmd (real qmd CLI, BM25)',
  capabilities: qmdCapabilities,
  create: () => createQmdBackend({ command }),
  cleanup: (backend) => (backend as QmdBackend).close(),
  seed: async (root, content) => writeWorkspaceFile(root, 'MEMORY.md', content),
});

// Each test runs the real qmd CLI several times: seconds apiece on a loaded machine.
describe('qmd backend search through the real qmd', { timeout: 60_000 }, () => {
  const project = tempProjectPerTest();
  const open = (options: Parameters<typeof createQmdBackend>[0] = {}) =>
    project.closeAfter(createQmdBackend({ command, ...options }));
  // Hooks run last-registered first: real timers are back before the backends close.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers with units and their metadata, canonical paths and no markers', async () => {
    const { root } = project;
    await writeWorkspaceFile(root, 'MEMORY.md', '# Project memory\n\nWe use pnpm workspaces.\n');
    await writeWorkspaceFile(
      root,
      '2026-03-01.md',
      `${unit(1, 'Deploys use the okapi blue-green pipeline.')}\n----\n${unit(2, 'Logs rotate daily.', { category: 'fact' })}\n`,
    );
    await writeWorkspaceFile(
      root,
      'threads/feat_x.md',
      '# Thread\n\nThe okapi pipeline is flaky.\n',
    );
    const backend = open();
    const hits = await backend.search(root, { query: 'okapi pipeline' });
    expect(hits.map((hit) => hit.path).sort()).toEqual(['2026-03-01.md', 'threads/feat_x.md']);
    const unitHit = hits.find((hit) => hit.path === '2026-03-01.md')!;
    expect(unitHit).toMatchObject({ kind: 'UNIT', memoryId: unitId(1), category: 'decision' });
    expect(unitHit.snippet).toBe('Deploys use the okapi blue-green pipeline.');
    for (const hit of hits) expect(hit.snippet).not.toContain('cairn:');
    expect(backend.warnings).toEqual([]);
    const facts = await backend.search(root, {
      query: 'okapi pipeline',
      filters: { kind: ['RAW'] },
    });
    expect(facts.map((hit) => hit.path)).toEqual(['threads/feat_x.md']);
  });

  it('keeps qmd index and config under .cairn/index/qmd/ and sees later edits', async () => {
    const { root } = project;
    const backend = open();
    await backend.write(root, '# Notes\n\nThe capybara cache warms at boot.\n');
    expect(await backend.search(root, { query: 'capybara' })).toHaveLength(1);
    const dir = join(cairnIndexPath(root), 'qmd');
    expect(existsSync(join(dir, 'index.sqlite'))).toBe(true);
    expect(existsSync(join(dir, 'cairn.yml'))).toBe(true);
    // A file written by other means (the engine writes daily files directly).
    await writeWorkspaceFile(root, '2026-04-02.md', 'The capybara cache moved to redis.\n');
    const hits = await backend.search(root, { query: 'capybara cache' });
    expect(hits.map((hit) => hit.path).sort()).toEqual(['2026-04-02.md', 'MEMORY.md']);
    // qmd BM25 needs every term: a word that is nowhere gives nothing (and no fallback).
    expect(await backend.search(root, { query: 'capybara zeppelin' })).toEqual([]);
    expect(backend.warnings).toEqual([]);
  });

  it('debounces qmd update after writes and only for collections already created', async () => {
    const { root } = project;
    const log = join(root, 'qmd-calls.log');
    const recording = await recordingQmd(root, log);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const backend = open({ command: [...recording], updateDebounceMs: 1000 });
    await backend.write(root, 'first tapir note\n');
    vi.advanceTimersByTime(5000);
    await backend.flush();
    // No collection yet: nothing to keep fresh, qmd never ran.
    expect(await loggedCommands(log)).toEqual([]);
    expect(await backend.search(root, { query: 'tapir' })).toHaveLength(1);
    expect(await loggedCommands(log)).toEqual(['collection add', 'search']);
    for (const text of ['second tapir note\n', 'third tapir note\n', 'fourth tapir note\n']) {
      await backend.write(root, text);
      vi.advanceTimersByTime(600);
    }
    await Promise.resolve();
    expect(await loggedCommands(log)).toEqual(['collection add', 'search']);
    vi.advanceTimersByTime(1000);
    await backend.flush();
    expect(await loggedCommands(log)).toEqual(['collection add', 'search', 'update']);
    // The update recorded the new state: the next search runs no second update.
    const hits = await backend.search(root, { query: 'tapir' });
    expect(hits[0]?.snippet).toBe('fourth tapir note');
    expect(await loggedCommands(log)).toEqual(['collection add', 'search', 'update', 'search']);
  });

  it('re-creates a collection qmd lost and rebuilds on request', async () => {
    const { root } = project;
    const backend = open();
    await backend.write(root, 'The narwhal queue drains hourly.\n');
    expect(await backend.search(root, { query: 'narwhal' })).toHaveLength(1);
    // Someone removed the collection with qmd itself; Cairn's state still lists it.
    await qmdIndexOf(root).run(['collection', 'remove', defaultCollectionName(root)], 60_000);
    expect(await backend.search(root, { query: 'narwhal queue' })).toHaveLength(1);
    const stats = await backend.rebuild(root);
    expect(stats).toMatchObject({ files: 1 });
    expect(stats.collection).toMatch(/^cairn-/);
  });

  it('normalizes stale and odd qmd paths to canonical workspace names', async () => {
    const { root } = project;
    // An index built from an older layout: lowercased and handelized names, plus a file
    // that no longer exists. qmd will report those paths.
    const legacy = join(root, 'legacy');
    await mkdir(join(legacy, 'threads'), { recursive: true });
    await writeFile(join(legacy, 'memory.md'), 'The walrus backlog is long.\n');
    await writeFile(join(legacy, 'threads', 'feat-x.md'), 'The walrus thread.\n');
    await writeFile(join(legacy, '2020-01-01.md'), 'A walrus from a deleted file.\n');
    await writeWorkspaceFile(root, 'MEMORY.md', 'The walrus backlog is long.\n');
    await writeWorkspaceFile(root, 'threads/feat_x.md', 'The walrus thread.\n');
    const backend = open({ collection: 'legacy' });
    const index = qmdIndexOf(root);
    await mkdir(index.dir, { recursive: true });
    await index.run(['collection', 'add', legacy, '--name', 'legacy', '--mask', '**/*.md'], 60_000);
    // Cairn's state says the collection is the workspace's and up to date.
    const workspace = {
      dir: join(root, '.cairn', 'memory'),
      signature: await workspaceSignature(root),
    };
    await writeFile(
      join(index.dir, 'cairn-state.json'),
      JSON.stringify({ collections: { legacy: workspace } }),
    );
    const hits = await backend.search(root, { query: 'walrus' });
    expect(hits.map((hit) => hit.path).sort()).toEqual(['MEMORY.md', 'threads/feat_x.md']);
    expect(hits.find((hit) => hit.path === 'MEMORY.md')?.snippet).toBe(
      'The walrus backlog is long.',
    );
    expect(backend.warnings).toEqual([]);
  });
});
