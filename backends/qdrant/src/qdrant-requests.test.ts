import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQdrantRetrievalAdapter, PAYLOAD_INDEXES, pointIdOf } from './index';
import type { RecordingServer } from './recording-server.fixture';
import { startRecordingServer } from './recording-server.fixture';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

// biome-ignore lint/suspicious/noExplicitAny: recorded JSON bodies are read field by field in assertions.
type Body = Record<string, any>;
const REPO = 'app';
const PARTITION = [
  { key: 'namespace_id', match: { value: 'default' } },
  { key: 'repo', match: { value: REPO } },
];

let project: TempProject;
let server: RecordingServer;
const open = (options: Record<string, unknown> = {}) =>
  createQdrantRetrievalAdapter({
    rootDir: project.root,
    options: { url: server.url, repo: REPO, ...options },
  });
const upserts = () => server.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/points'));
const deletes = () => server.calls.filter((c) => c.path.endsWith('/points/delete'));
const queries = () => server.calls.filter((c) => c.path.endsWith('/points/query'));
const upsertedPoints = () => upserts().flatMap((c) => (c.body as Body).points as Body[]);

beforeEach(async () => {
  project = await makeTempProject();
  server = await startRecordingServer();
  await writeWorkspaceFile(
    project.root,
    'MEMORY.md',
    `# Head\n\nThe quokkaflare deploys blue-green.\n\n${unit(1, 'Use pnpm for dependency management.')}\n`,
  );
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

describe('collection bootstrap', () => {
  it('creates the collection with dense + sparse vectors and every payload index', async () => {
    await open({ apiKey: 'secret-key' }).recall({ agentId: 'bob', query: 'quokkaflare' });
    const create = server.calls.find(
      (c) => c.method === 'PUT' && c.path === '/collections/cairn_default',
    );
    expect(create?.body).toEqual({
      vectors: { dense: { size: 256, distance: 'Cosine' } },
      sparse_vectors: { keyword: { modifier: 'idf' } },
    });
    const indexes = server.calls.filter((c) => c.path === '/collections/cairn_default/index');
    expect(
      Object.fromEntries(indexes.map((c) => [c.body?.field_name, c.body?.field_schema])),
    ).toEqual(PAYLOAD_INDEXES);
    expect(server.calls.every((c) => c.headers['api-key'] === 'secret-key')).toBe(true);
  });

  it('uses an existing collection and creates only the missing indexes', async () => {
    server.existing = { size: 256, sparse: false };
    const adapter = open({ namespace: 'team', collectionPrefix: 'mem' });
    await adapter.recall({ agentId: 'bob', query: 'quokkaflare' });
    expect(server.calls.some((c) => c.method === 'PUT' && c.path === '/collections/mem_team')).toBe(
      false,
    );
    expect(adapter.warnings.join('\n')).toContain('no "keyword" sparse vector');
    // Without the sparse vector the query is dense only.
    expect(queries()[0]?.body).toMatchObject({ using: 'dense', score_threshold: 0.2 });
    expect(upsertedPoints().every((p) => Object.keys(p.vector).join() === 'dense')).toBe(true);
  });
});

describe('points', () => {
  it('upserts one point per chunk with stable ids and the seed 004 payload', async () => {
    await open().recall({ agentId: 'bob', query: 'quokkaflare' });
    const points = upsertedPoints();
    expect(upserts()[0]?.query).toEqual({ wait: 'true' });
    const unitPoint = points.find((p) => p.payload.kind === 'UNIT')!;
    const chunkId = `default/${REPO}/workspace:MEMORY.md#${unitId(1)}`;
    expect(unitPoint.id).toBe(pointIdOf(chunkId));
    expect(unitPoint.payload).toMatchObject({
      record_kind: 'long_term_shadow',
      namespace_id: 'default',
      repo: REPO,
      security_scope: 'project',
      scope: 'project',
      trust_class: 'approved',
      memory_id: unitId(1),
      review_state: 'approved',
      category: 'fact',
      created_at: '2026-03-01T10:00:00.000Z',
      provenance: { path: 'MEMORY.md' },
      chunk_id: chunkId,
      pool: 'workspace',
      tier: 'hot',
      path: 'MEMORY.md',
      embedder: 'hash:fnv1a-fmix-content-words-pairs-trigrams-v2:256',
    });
    expect(unitPoint.payload.text).toBe('Use pnpm for dependency management.');
    const raw = points.find((p) => p.payload.kind === 'RAW')!;
    expect(raw.payload).toMatchObject({ record_kind: 'doc', trust_class: 'raw' });
    expect(raw.payload.text).not.toContain('cairn:memory');
    expect(raw.vector.dense).toHaveLength(256);
    expect(raw.vector.keyword.indices.length).toBe(raw.vector.keyword.values.length);
  });

  it('refreshes incrementally: unchanged is skipped, touched only restats, edits purge stale ids', async () => {
    const adapter = open();
    await adapter.recall({ agentId: 'bob', query: 'quokkaflare' });
    const first = upsertedPoints().length;
    await adapter.recall({ agentId: 'bob', query: 'quokkaflare' });
    expect(upsertedPoints()).toHaveLength(first);

    const file = join(project.root, '.cairn/memory/MEMORY.md');
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    await adapter.indexPaths([file]);
    expect(upsertedPoints()).toHaveLength(first);
    const restat = server.calls.find((c) => c.path.endsWith('/points/payload'));
    expect(Object.keys(restat?.body?.payload ?? {})).toEqual(['file_size', 'file_mtime_ms']);

    await writeFile(file, '# Head\n\nOnly otterlamp now.\n');
    await adapter.indexPaths([file]);
    const latest = upserts().at(-1)!.body!.points as Body[];
    const purge = deletes().at(-1)!.body as Body;
    expect(purge.filter.must).toEqual([
      ...PARTITION,
      { key: 'pool', match: { value: 'workspace' } },
      { key: 'path', match: { value: 'MEMORY.md' } },
    ]);
    expect(purge.filter.must_not).toEqual([{ has_id: latest.map((p) => p.id) }]);

    await rm(file);
    await adapter.indexPaths([]);
    expect((deletes().at(-1)!.body as Body).filter).toEqual({
      must: [
        ...PARTITION,
        { key: 'pool', match: { value: 'workspace' } },
        { key: 'path', match: { value: 'MEMORY.md' } },
      ],
    });
  });

  it('registerPools deletes the points of pools that are no longer registered', async () => {
    await mkdir(join(project.root, 'docs'), { recursive: true });
    await writeFile(join(project.root, 'docs/a.md'), 'quokkaflare notes\n');
    const adapter = open();
    await adapter.registerPools([{ id: 'docs', tier: 'warm', path: 'docs' }]);
    await adapter.indexPaths([]);
    const reconcile = deletes().find((c) => (c.body as Body).filter.must_not)!;
    expect((reconcile.body as Body).filter).toEqual({
      must: PARTITION,
      must_not: [{ key: 'pool', match: { any: ['workspace', 'docs'] } }],
    });
    expect(upsertedPoints().map((p) => p.payload.pool)).toContain('docs');
  });
});

describe('queries', () => {
  const lastQuery = (): Body => queries().at(-1)!.body as Body;

  it('fuses a dense and a sparse arm with RRF, inside the partition, pools and tiers', async () => {
    await open().recall({ agentId: 'bob', query: 'quokkaflare deploys', limit: 5 });
    const body = lastQuery();
    const filter = {
      must: [
        ...PARTITION,
        {
          key: 'embedder',
          match: { value: 'hash:fnv1a-fmix-content-words-pairs-trigrams-v2:256' },
        },
        { key: 'pool', match: { value: 'workspace' } },
        { key: 'tier', match: { any: ['hot', 'warm'] } },
      ],
      must_not: [{ key: 'review_state', match: { value: 'deprecated' } }],
    };
    expect(body).toMatchObject({ query: { fusion: 'rrf' }, filter, limit: 5, with_payload: true });
    const [dense, sparse] = body.prefetch as Body[];
    expect(dense).toMatchObject({ using: 'dense', filter, limit: 40, score_threshold: 0.2 });
    expect(dense?.query).toHaveLength(256);
    expect(sparse).toMatchObject({ using: 'keyword', filter, limit: 40 });
    expect(sparse?.query.indices).toHaveLength(2);
    expect(sparse?.query.values).toEqual([1, 1]);
  });

  it('pushes payload filters down and checks the others on each hit', async () => {
    const adapter = open();
    await adapter.recall({
      agentId: 'bob',
      query: 'pnpm',
      filters: { review: ['approved', 'draft'], memoryId: unitId(1), trust_class: 'approved' },
    });
    const pushed = lastQuery();
    expect(pushed.filter.must).toEqual(
      expect.arrayContaining([
        { key: 'review_state', match: { any: ['approved', 'draft'] } },
        { key: 'memory_id', match: { value: unitId(1) } },
        { key: 'trust_class', match: { value: 'approved' } },
      ]),
    );
    expect(pushed.filter.must_not).toBeUndefined();
    await adapter.recall({ agentId: 'bob', query: 'pnpm', filters: { startLine: '3' } });
    expect(lastQuery().limit).toBe(1000);
  });

  it('maps answered points to results with pool, tier, unit metadata and bounded snippets', async () => {
    const adapter = open();
    await adapter.recall({ agentId: 'bob', query: 'pnpm' });
    const stored = upsertedPoints();
    server.queryAnswer = stored.map((p, i) => ({
      id: p.id,
      score: 1 - i / 10,
      payload: p.payload,
    }));
    const results = await adapter.recall({ agentId: 'bob', query: 'pnpm' });
    expect(results.map((r) => r.id)).toEqual(stored.map((p) => p.payload.chunk_id));
    const unitResult = results.find((r) => r.metadata?.kind === 'UNIT')!;
    expect(unitResult.uri).toBe(join(project.root, '.cairn/memory/MEMORY.md'));
    expect(unitResult.metadata).toMatchObject({
      poolId: 'workspace',
      tier: 'hot',
      memoryId: unitId(1),
      review: 'approved',
      record_kind: 'long_term_shadow',
      pointId: pointIdOf(String(unitResult.id)),
    });
    expect(unitResult.snippet).toBe('Use pnpm for dependency management.');
  });
});
