import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type MemoryResult, type MemoryRetrievalAdapter, memoryWorkspacePath } from '@cairn/core';
import { expect, it } from 'vitest';
import { expectCode } from './expect-code';
import type { DescribeRetrievalAdapterOptions } from './retrieval-suite-options';
import type { TempProject } from './tree-snapshot';

/** The adapter and project of the current test (set up by describeRetrievalAdapter). */
export interface AdapterSuite {
  adapter: () => MemoryRetrievalAdapter;
  project: () => TempProject;
}

export const POOLS = [
  { id: 'warm', tier: 'warm' as const, path: 'pools/warm' },
  { id: 'cold', tier: 'cold' as const, path: 'pools/cold' },
  { id: 'ops', tier: 'warm' as const, path: 'pools/ops', roles: ['ops'], agents: ['alice'] },
];

export const poolsOf = (results: MemoryResult[]) =>
  [...new Set(results.map((r) => String(r.metadata?.poolId)))].sort();

const DEFAULT_SEMANTIC_PROBE = {
  document: 'The wombatgrid snapshots are encrypted nightly.\n',
  query: 'encrypting wombatgrids snapshot',
};

/** Recall: tiers, agents, roles, pool ids, limits, filters, ranking, empty answers. */
export function describeRecall(f: AdapterSuite): void {
  describeRecallScope(f);
  describeRecallEdges(f);
}

/** Which pools a recall reaches (tiers, agents, roles, pool ids) and how much it returns. */
function describeRecallScope(f: AdapterSuite): void {
  it('recalls hot and warm pools by default and cold only when asked', async () => {
    expect(poolsOf(await f.adapter().recall({ agentId: 'bob', query: 'quokkaflare' }))).toEqual([
      'warm',
      'workspace',
    ]);
    const cold = await f
      .adapter()
      .recall({ agentId: 'bob', query: 'quokkaflare', tiers: ['cold'] });
    expect(poolsOf(cold)).toEqual(['cold']);
  });

  it('honours agents, roles and pool ids', async () => {
    const alice = await f.adapter().recall({ agentId: 'alice', role: 'ops', query: 'quokkaflare' });
    expect(poolsOf(alice)).toEqual(['ops', 'warm', 'workspace']);
    expect(poolsOf(await f.adapter().recall({ agentId: 'alice', query: 'quokkaflare' }))).toEqual([
      'warm',
      'workspace',
    ]);
    expect(
      poolsOf(await f.adapter().recall({ agentId: 'bob', role: 'ops', query: 'quokkaflare' })),
    ).toEqual(['warm', 'workspace']);
    const onlyWarm = await f.adapter().recall({
      agentId: 'bob',
      query: 'quokkaflare',
      poolIds: ['warm'],
    });
    expect(poolsOf(onlyWarm)).toEqual(['warm']);
  });

  it('respects the limit and returns bounded snippets with ids and uris', async () => {
    const results = await f.adapter().recall({
      agentId: 'alice',
      role: 'ops',
      query: 'quokkaflare',
      limit: 2,
      tiers: ['hot', 'warm', 'cold'],
    });
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(typeof result.id).toBe('string');
      expect(typeof result.uri).toBe('string');
      expect((result.snippet ?? '').length).toBeLessThanOrEqual(4000);
    }
  });
}

/** Empty answers, never errors; metadata filters; best first. */
function describeRecallEdges(f: AdapterSuite): void {
  it('returns an empty list, never an error, when nothing matches or no pool is eligible', async () => {
    expect(await f.adapter().recall({ agentId: 'bob', query: 'zzqqxx nothing' })).toEqual([]);
    expect(
      await f.adapter().recall({ agentId: 'bob', query: 'quokkaflare', poolIds: ['missing'] }),
    ).toEqual([]);
  });

  it('an empty or blank query recalls nothing, without an error', async () => {
    expect(await f.adapter().recall({ agentId: 'bob', query: '' })).toEqual([]);
    expect(await f.adapter().recall({ agentId: 'bob', query: '   ' })).toEqual([]);
  });

  it('applies poolId and tier metadata filters and ranks best first', async () => {
    const all = { agentId: 'bob', query: 'quokkaflare', tiers: ['hot', 'warm', 'cold'] as const };
    const byPool = await f.adapter().recall({
      ...all,
      tiers: [...all.tiers],
      filters: { poolId: 'cold' },
    });
    expect(poolsOf(byPool)).toEqual(['cold']);
    const hot = await f
      .adapter()
      .recall({ ...all, tiers: [...all.tiers], filters: { tier: 'hot' } });
    expect(poolsOf(hot)).toEqual(['workspace']);
    const ranked = await f.adapter().recall({ ...all, tiers: [...all.tiers] });
    const scores = ranked.map((r) => r.score ?? 0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
}

/** Pools and indexing: reconcile, reject without change, re-point, status, new/edited/deleted files. */
export function describePools(f: AdapterSuite): void {
  describePoolRegistration(f);
  describeIndexing(f);
}

/** registerPools reconciles, refuses bad pools without change, and re-points a pool. */
function describePoolRegistration(f: AdapterSuite): void {
  it('reconciles to the registered pools (a dropped pool is no longer recalled)', async () => {
    await f.adapter().registerPools(POOLS.filter((p) => p.id !== 'warm'));
    expect(poolsOf(await f.adapter().recall({ agentId: 'bob', query: 'quokkaflare' }))).toEqual([
      'workspace',
    ]);
  });

  it('rejects malformed pools and queries with INVALID_INPUT', async () => {
    await expectCode(
      f.adapter().registerPools([{ id: '../x', tier: 'hot', path: '.' }]),
      'INVALID_INPUT',
    );
    await expectCode(f.adapter().recall({ agentId: '', query: 'x' }), 'INVALID_INPUT');
  });

  it('a rejected registerPools changes nothing', async () => {
    await expectCode(
      f.adapter().registerPools([...POOLS, { id: 'bad', tier: 'lukewarm' as 'hot', path: '.' }]),
      'INVALID_INPUT',
    );
    expect(poolsOf(await f.adapter().recall({ agentId: 'bob', query: 'quokkaflare' }))).toEqual([
      'warm',
      'workspace',
    ]);
  });

  it('re-registering a pool with another folder recalls the new folder', async () => {
    await f.adapter().registerPools([{ id: 'warm', tier: 'warm', path: 'pools/ops' }]);
    const results = await f.adapter().recall({ agentId: 'bob', query: 'quokkaflare keys rotate' });
    const warm = results.filter((r) => r.metadata?.poolId === 'warm');
    expect(warm.length).toBeGreaterThan(0);
    expect(warm.every((r) => (r.snippet ?? '').includes('rotate'))).toBe(true);
  });
}

/** Status, and indexPaths over new, edited and deleted files. */
function describeIndexing(f: AdapterSuite): void {
  it('reports a healthy status when it has one', async (ctx) => {
    const adapter = f.adapter();
    if (!adapter.status) return ctx.skip('the adapter has no status()');
    await adapter.recall({ agentId: 'bob', query: 'quokkaflare' });
    const status = await adapter.status();
    expect(status.ok).toBe(true);
    if (status.message !== undefined) expect(typeof status.message).toBe('string');
  });

  it('indexPaths picks up a new file, an edit and a deletion', async () => {
    const warm = join(f.project().root, 'pools/warm');
    await writeFile(join(warm, 'new.md'), '# New\n\nThe zebrafinch relay moved to rack nine.\n');
    await f.adapter().indexPaths([warm]);
    expect(poolsOf(await f.adapter().recall({ agentId: 'bob', query: 'zebrafinch' }))).toEqual([
      'warm',
    ]);
    await writeFile(
      join(warm, 'runbook.md'),
      '# Runbook\n\nRestart otterlamp with the ops script.\n',
    );
    await f.adapter().indexPaths([join(warm, 'runbook.md')]);
    const edited = await f.adapter().recall({ agentId: 'bob', query: 'otterlamp' });
    expect(edited.map((r) => r.metadata?.poolId)).toContain('warm');
    expect(edited.every((r) => !(r.snippet ?? '').includes('quokkaflare'))).toBe(true);
    await rm(join(warm, 'new.md'));
    await f.adapter().indexPaths([warm]);
    expect(await f.adapter().recall({ agentId: 'bob', query: 'zebrafinch' })).toEqual([]);
  });
}

/** The declared recall modes, and the fallback when the adapter's package is missing. */
export function describeModes(f: AdapterSuite, options: DescribeRetrievalAdapterOptions): void {
  const declared = options.capabilities;
  if (declared.keyword) {
    it('keyword: finds a document by a distinctive word', async () => {
      const results = await f.adapter().recall({ agentId: 'bob', query: 'blue-green deploys' });
      expect(results[0]?.snippet).toContain('blue-green');
    });
  }

  if (declared.semantic) {
    it('semantic: finds a document by related wording with no exact word in common', async () => {
      const probe = options.semanticProbe ?? DEFAULT_SEMANTIC_PROBE;
      await writeFile(join(memoryWorkspacePath(f.project().root), '2026-03-02.md'), probe.document);
      await f.adapter().indexPaths([memoryWorkspacePath(f.project().root)]);
      const results = await f.adapter().recall({ agentId: 'bob', query: probe.query });
      const wanted = probe.document.trim().slice(0, 24);
      expect(results.some((r) => (r.snippet ?? r.content ?? '').includes(wanted))).toBe(true);
    });
  }

  const fallback = options.fallback;
  if (fallback) {
    it(`falls back to the builtin adapter with a warning when ${fallback.missingPackage} is missing`, async () => {
      const outcome = await fallback.run(f.project().root);
      expect(outcome.adapterId).toBe('file');
      const warning = outcome.warnings.find((w) => w.includes(fallback.missingPackage));
      expect(warning, outcome.warnings.join('\n')).toBeDefined();
      expect(warning).toMatch(/npm i|pnpm add/);
      if (outcome.recall) {
        const results = await outcome.recall({ agentId: 'bob', query: 'quokkaflare' });
        expect(poolsOf(results)).toContain('workspace');
      }
    });
  }
}
