import {
  DIGEST_FIXTURE_PATH,
  historyRecordsFixture,
  makeTempProject,
  PATTERN_FIXTURE_PATH,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQdrantRetrievalAdapter } from './index';
import { type RecordingServer, startRecordingServer } from './recording-server.fixture';
import { unit, writeWorkspaceFile } from './test-fixtures';

// biome-ignore lint/suspicious/noExplicitAny: recorded JSON bodies are read field by field.
type Body = Record<string, any>;

let project: TempProject;
let server: RecordingServer;

beforeEach(async () => {
  project = await makeTempProject();
  server = await startRecordingServer();
  await writeWorkspaceFile(
    project.root,
    'MEMORY.md',
    `The quokkaflare notes.\n\n${unit(1, 'The quokkaflare build uses pnpm.', { review: 'approved' })}\n`,
  );
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const open = (namespace: string, repo: string, word?: string) => {
  const fixture = historyRecordsFixture({ namespace, repo, word });
  return createQdrantRetrievalAdapter(
    { rootDir: project.root, options: { url: server.url, namespace, repo } },
    { sourcePools: [{ definition: fixture.definition, source: fixture.source }] },
  );
};

/** Every point payload the adapter upserted, by path. */
function upserted(repo: string): Map<string, Body[]> {
  const byPath = new Map<string, Body[]>();
  for (const call of server.calls) {
    if (call.method !== 'PUT' || !call.path.endsWith('/points')) continue;
    for (const point of (call.body as Body).points) {
      if (point.payload.repo !== repo) continue;
      byPath.set(point.payload.path, [...(byPath.get(point.payload.path) ?? []), point.payload]);
    }
  }
  return byPath;
}

describe('qdrant: task-history records (seed 004 §6.2 payload keys)', () => {
  it('upserts a digest and a pattern with record_kind, trust_class, namespace_id, repo, run_ref and created_at', async () => {
    await open('team-a', 'shop').recall({ agentId: 'bob', query: 'quokkaflare build' });
    const points = upserted('shop');
    const [pattern] = points.get(PATTERN_FIXTURE_PATH) ?? [];
    expect(pattern).toMatchObject({
      record_kind: 'fix_pattern',
      trust_class: 'approved',
      namespace_id: 'team-a',
      repo: 'shop',
      run_ref: { kind: 'run', id: 's-42' },
      created_at: '2026-05-01T09:10:00.000Z',
      pool: 'history',
      tier: 'warm',
    });
    const [digest] = points.get(DIGEST_FIXTURE_PATH) ?? [];
    expect(digest).toMatchObject({
      record_kind: 'run_digest',
      trust_class: 'derived',
      run_ref: { kind: 'run', id: 's-42' },
      created_at: '2026-05-01T09:14:10.000Z',
    });
    expect(String(pattern?.text)).not.toContain('cairn:record');
    // Markdown keeps its kinds, with no run_ref.
    const markdown = points.get('MEMORY.md') ?? [];
    expect(markdown.map((p) => p.record_kind).sort()).toEqual(['doc', 'long_term_shadow']);
    expect(markdown.every((p) => p.run_ref === undefined)).toBe(true);
    // run_ref.kind and run_ref.id are indexed payload keys, so filters on them are pushed down.
    const indexed = server.calls
      .filter((c) => c.method === 'PUT' && c.path.endsWith('/index'))
      .map((c) => (c.body as Body).field_name);
    expect(indexed).toEqual(expect.arrayContaining(['record_kind', 'run_ref.kind', 'run_ref.id']));
  });

  it('pushes record_kind and run_ref filters into the query, inside the partition, and reads records back', async () => {
    const adapter = open('team-a', 'shop');
    server.queryAnswer = [
      {
        id: '00000000-0000-5000-8000-000000000001',
        score: 0.9,
        payload: {
          record_kind: 'fix_pattern',
          trust_class: 'approved',
          namespace_id: 'team-a',
          repo: 'shop',
          run_ref: { kind: 'run', id: 's-42' },
          created_at: '2026-05-01T09:10:00.000Z',
          chunk_id: 'team-a/shop/history:x',
          pool: 'history',
          tier: 'warm',
          path: PATTERN_FIXTURE_PATH,
          kind: 'RAW',
          start_line: 2,
          end_line: 4,
          text: 'When the quokkaflare build fails, run pnpm install.',
        },
      },
    ];
    const hits = await adapter.recall({
      agentId: 'bob',
      query: 'quokkaflare build',
      filters: { record_kind: ['run_digest', 'fix_pattern'], 'run_ref.id': 's-42' },
    });
    expect(hits[0]?.metadata).toMatchObject({
      record_kind: 'fix_pattern',
      trust_class: 'approved',
      namespace_id: 'team-a',
      repo: 'shop',
      'run_ref.kind': 'run',
      'run_ref.id': 's-42',
    });
    const [query] = server.calls.filter((c) => c.path.endsWith('/points/query'));
    const must = (query!.body as Body).filter.must as Body[];
    expect(must.slice(0, 2)).toEqual([
      { key: 'namespace_id', match: { value: 'team-a' } },
      { key: 'repo', match: { value: 'shop' } },
    ]);
    expect(must).toEqual(
      expect.arrayContaining([
        { key: 'record_kind', match: { any: ['run_digest', 'fix_pattern'] } },
        { key: 'run_ref.id', match: { value: 's-42' } },
      ]),
    );
  });

  it('keeps two namespaces and two repos apart: each writes and asks only its own partition', async () => {
    await open('team-a', 'shop', 'quokkaflare').recall({ agentId: 'bob', query: 'quokkaflare' });
    await open('team-b', 'shop', 'otterlamp').recall({ agentId: 'bob', query: 'otterlamp' });
    await open('team-a', 'bank', 'wombatine').recall({ agentId: 'bob', query: 'wombatine' });
    const partitions = new Set<string>();
    for (const call of server.dataCalls()) {
      const body = (call.body ?? {}) as Body;
      if (call.method === 'PUT' && call.path.endsWith('/points')) {
        for (const point of body.points) {
          const p = point.payload;
          partitions.add(`${p.namespace_id}/${p.repo}`);
          // A record's text names its own partition's word only.
          const word = {
            'team-a/shop': 'quokkaflare',
            'team-b/shop': 'otterlamp',
            'team-a/bank': 'wombatine',
          }[`${p.namespace_id}/${p.repo}` as 'team-a/shop'];
          if (p.pool === 'history') expect(p.text).toContain(word);
        }
        continue;
      }
      const filters = [body.filter, ...(body.prefetch ?? []).map((a: Body) => a.filter)].filter(
        Boolean,
      );
      for (const filter of filters) {
        const [ns, repo] = filter.must as Body[];
        expect(ns?.key).toBe('namespace_id');
        expect(repo?.key).toBe('repo');
      }
    }
    expect([...partitions].sort()).toEqual(['team-a/bank', 'team-a/shop', 'team-b/shop']);
  });
});
