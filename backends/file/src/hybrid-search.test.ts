import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createHashEmbedder,
  type Embedder,
  embedderKey,
  type MemorySearchOptions,
  memoryWorkspacePath,
} from '@cairn/core';
import { openSqlite } from '@cairn/sqlite';
import { describeRetrievalAdapter, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  closeSearchIndexes,
  createFileBackend,
  createFileRetrievalAdapter,
  type FileSearchResult,
  fileRetrievalCapabilities,
  type HybridRanking,
  openSearchIndex,
  type SearchIndex,
} from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

let project: TempProject;
const opened: SearchIndex[] = [];
let clock = Date.parse('2026-01-01T00:00:00Z') / 1000;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(async () => {
  for (const index of opened.splice(0)) index.close();
  closeSearchIndexes();
  await project.cleanup();
});

async function write(path: string, text: string): Promise<void> {
  await writeWorkspaceFile(project.root, path, text);
  clock += 10;
  await utimes(join(memoryWorkspacePath(project.root), path), clock, clock);
}

const NOW = Date.parse('2026-03-02T00:00:00Z');
function open(embedder: Embedder | undefined, ranking: Partial<HybridRanking> = {}): SearchIndex {
  const index = openSearchIndex(project.root, {
    ...(embedder ? { embedder } : {}),
    ranking,
    now: () => NOW,
  });
  opened.push(index);
  return index;
}

const paths = (hits: FileSearchResult[]) => hits.map((hit) => `${hit.path}:${hit.startLine}`);

/** An embedder that fails like an unreachable server would. */
function failingEmbedder(): Embedder {
  return {
    id: 'broken',
    model: 'offline',
    dimensions: 8,
    embed: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:9');
    },
  };
}

function storedModels(): string[] {
  const db = openSqlite(join(project.root, '.cairn/index/search.sqlite'), 'test', {
    readonly: true,
  });
  try {
    return db
      .prepare('SELECT DISTINCT model FROM chunk_vectors ORDER BY model')
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
}

describe('hybrid search (file backend, hash embedder)', () => {
  it('finds by vector what keyword misses, and says it searched hybrid', async () => {
    await write('MEMORY.md', 'We run Postgres 16 in production.\n');
    await write('2026-03-01.md', unit(1, 'The office plants need water on Mondays.'));
    // A typo: no stem matches, most character trigrams do.
    const query = { query: 'postgress' };
    expect(await open(undefined).search(query)).toEqual([]);
    const hits = await open(createHashEmbedder()).search(query);
    expect(hits[0]?.path).toBe('MEMORY.md');
    expect(hits[0]?.metadata).toEqual({
      mode: 'hybrid',
      embedder: embedderKey(createHashEmbedder()),
    });
    expect(paths(hits)).not.toContain('2026-03-01.md:1');
  });

  it('falls back to keyword when the embedder fails, and says why', async () => {
    await write('MEMORY.md', 'Deploys go through the canary first.\n');
    const hits = await open(failingEmbedder()).search({ query: 'canary' });
    expect(hits).toHaveLength(1);
    expect(hits[0]?.metadata).toMatchObject({ mode: 'keyword', embedder: 'broken:offline:8' });
    expect(hits[0]?.metadata?.embedderError).toMatch(/ECONNREFUSED/);
  });

  it('MMR keeps near-identical chunks from filling the top (and can be switched off)', async () => {
    const same = 'Rotate the staging deploy keys every month.';
    await write('2026-03-01.md', [1, 2, 3].map((n) => unit(n, `${same} Copy ${n}.`)).join(''));
    await write(
      '2026-03-02.md',
      unit(4, 'Staging keys live in the vault; deploy reads them at start.'),
    );
    const query: MemorySearchOptions = { query: 'rotate staging deploy keys', limit: 2 };
    const plain = await open(createHashEmbedder(), { mmr: false }).search(query);
    expect(plain.map((hit) => hit.memoryId?.slice(-1))).not.toContain('4');
    const diverse = await open(createHashEmbedder(), { mmr: true, mmrLambda: 0.5 }).search(query);
    expect(diverse.map((hit) => hit.memoryId?.slice(-1))).toContain('4');
    expect(diverse[0]!.score).toBeGreaterThanOrEqual(diverse[1]!.score);
  });

  it('decays old daily notes but never units or MEMORY.md (switchable)', async () => {
    const text = 'Backup restore drill passed on the replica.\n';
    await write('2025-01-01.md', text);
    await write('2026-03-01.md', text);
    await write('MEMORY.md', text);
    const query = { query: 'backup restore drill replica' };
    const decayed = paths(
      await open(createHashEmbedder(), { recencyHalfLifeDays: 30 }).search(query),
    );
    expect(decayed.slice(0, 2).sort()).toEqual(['2026-03-01.md:1', 'MEMORY.md:1']);
    expect(decayed.at(-1)).toBe('2025-01-01.md:1');
    const flat = await open(createHashEmbedder(), { recencyHalfLifeDays: 0, mmr: false }).search(
      query,
    );
    expect(new Set(flat.map((hit) => hit.score)).size).toBe(1);
    await write('2024-01-01.md', unit(9, 'Backup restore drill passed on the replica.'));
    const withUnit = await open(createHashEmbedder(), { recencyHalfLifeDays: 30 }).search(query);
    expect(withUnit[0]?.path).toBe('2024-01-01.md');
  });

  it('rebuilds vectors when the model changes, and never mixes two models', async () => {
    await write('MEMORY.md', 'The cache warms at boot.\n');
    const small = createHashEmbedder({ dimensions: 64 });
    const large = createHashEmbedder({ dimensions: 128 });
    await open(small).search({ query: 'cache' });
    expect(storedModels()).toEqual([embedderKey(small)]);
    const hits = await open(large).search({ query: 'cache' });
    expect(hits[0]?.metadata?.embedder).toBe(embedderKey(large));
    expect(storedModels()).toEqual([embedderKey(large)]);
  });

  it('keeps the vectors of chunks a refresh left alone', async () => {
    const index = open(createHashEmbedder());
    const first = `${unit(1, 'We run Postgres 16 in production.')}${unit(2, 'Lunch on Fridays.')}`;
    await write('2026-03-01.md', first);
    // A typo: only the vector finds unit 1.
    const typo = async () => (await index.search({ query: 'postgress' })).map((h) => h.memoryId);
    expect(await typo()).toContain(unitId(1));
    await write('2026-03-01.md', `${first}${unit(3, 'Office plants need water.')}`);
    expect(await typo()).toContain(unitId(1));
    await index.rebuild();
    expect(await typo()).toContain(unitId(1));
  });

  it('answers the same after incremental refreshes as after a rebuild', async () => {
    const index = open(createHashEmbedder());
    const queries = ['pnpm lockfile', 'canary deploy', 'otter release notes'].map((q) => ({
      query: q,
      limit: 5,
    }));
    const answers = () => Promise.all(queries.map((q) => index.search(q)));
    await write('MEMORY.md', '# Memory\n\nRelease notes live in docs.\n');
    await write(
      '2026-03-01.md',
      `${unit(1, 'Use pnpm with one lockfile.')}${unit(2, 'Canary first.')}`,
    );
    await answers();
    await write(
      '2026-03-01.md',
      `${unit(1, 'Use pnpm with one lockfile.')}${unit(3, 'Deploy canary.')}`,
    );
    await write('threads/main.md', 'The otter reviews release notes.\n');
    const incremental = await answers();
    await index.rebuild();
    expect(await answers()).toEqual(incremental);
    expect(incremental[1]!.map((hit) => hit.memoryId)).toContain(
      'UNIT:00000000-0000-4000-8000-000000000003',
    );
  });

  it('passes the embedder through the backend and the retrieval adapter', async () => {
    await write('MEMORY.md', 'We run Postgres 16 in production.\n');
    const backend = createFileBackend({ embedder: createHashEmbedder() });
    const [hit] = await backend.search(project.root, { query: 'postgress' });
    expect(hit?.metadata?.mode).toBe('hybrid');
    const adapter = createFileRetrievalAdapter({
      rootDir: project.root,
      options: { embedder: createHashEmbedder() },
    });
    expect(adapter.capabilities.semantic).toBe(true);
    const [result] = await adapter.recall({ agentId: 'a', query: 'postgress' });
    expect(result?.metadata).toMatchObject({ mode: 'hybrid', path: 'MEMORY.md' });
    expect(await adapter.recall({ agentId: 'a', query: 'zzqqxx nothing' })).toEqual([]);
  });
});

describeRetrievalAdapter({
  name: 'file adapter, hybrid with the hash embedder',
  capabilities: { ...fileRetrievalCapabilities, semantic: true },
  create: (rootDir) =>
    createFileRetrievalAdapter({ rootDir, options: { embedder: createHashEmbedder() } }),
  cleanup: () => closeSearchIndexes(),
});
