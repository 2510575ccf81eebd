import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  memoryWorkspacePath,
  type RetrievalAdapterCapabilities,
} from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectCode } from './expect-code';
import { makeTempProject, type TempProject } from './tree-snapshot';

export interface DescribeRetrievalAdapterOptions {
  name: string;
  /** The static declaration; it decides which tests run. */
  capabilities: RetrievalAdapterCapabilities;
  /** A fresh adapter for a project root (the workspace is its default hot pool). */
  create: (rootDir: string) => MemoryRetrievalAdapter | Promise<MemoryRetrievalAdapter>;
  cleanup?: (adapter: MemoryRetrievalAdapter) => void | Promise<void>;
  /**
   * For semantic adapters: a workspace document and a query that shares no
   * exact word with it but means the same (default: near-miss spellings the
   * offline hash embedder relates). Override it for an embedder that does not.
   */
  semanticProbe?: { document: string; query: string };
  /**
   * The "missing optional package" check (seed 001: an adapter must be
   * optional). Runs once per test project; the caller simulates the missing
   * package (e.g. an importer that throws) and reports what Cairn did.
   */
  fallback?: {
    /** The package whose absence is simulated, e.g. `@cairn/backend-lancedb`. */
    missingPackage: string;
    run: (rootDir: string) => Promise<RetrievalFallbackOutcome>;
  };
}

/** What Cairn did when the configured adapter's package was missing. */
export interface RetrievalFallbackOutcome {
  /** The adapter that answers recall now: must be the builtin `file`. */
  adapterId: string;
  /** Warnings shown to the user: one must name the package and how to install it. */
  warnings: readonly string[];
  /** Recall through whatever answers now, when the caller can offer it. */
  recall?: (query: MemoryQuery) => Promise<MemoryResult[]>;
}

const DEFAULT_SEMANTIC_PROBE = {
  document: 'The wombatgrid snapshots are encrypted nightly.\n',
  query: 'encrypting wombatgrids snapshot',
};

/** Writes a small corpus: the workspace (hot) and three pool folders. */
async function writeCorpus(root: string): Promise<void> {
  const files: [string, string][] = [
    [
      join(memoryWorkspacePath(root), 'MEMORY.md'),
      '# Head\n\nThe quokkaflare service deploys with blue-green.\n',
    ],
    [
      join(root, 'pools/warm/runbook.md'),
      '# Runbook\n\nRestart quokkaflare with the ops script.\n',
    ],
    [join(root, 'pools/cold/archive.md'), '# Archive\n\nIn 2019 quokkaflare ran on bare metal.\n'],
    [join(root, 'pools/ops/keys.md'), '# Keys\n\nquokkaflare keys rotate monthly.\n'],
  ];
  for (const [path, text] of files) {
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text);
  }
}

const POOLS = [
  { id: 'warm', tier: 'warm' as const, path: 'pools/warm' },
  { id: 'cold', tier: 'cold' as const, path: 'pools/cold' },
  { id: 'ops', tier: 'warm' as const, path: 'pools/ops', roles: ['ops'], agents: ['alice'] },
];

const poolsOf = (results: MemoryResult[]) =>
  [...new Set(results.map((r) => String(r.metadata?.poolId)))].sort();

/**
 * Conformance suite of the MemoryRetrievalAdapter contract (seed 001):
 * registerPools (reconcile, re-point, reject without change), indexPaths
 * (new, edited, deleted files), recall with pools, tiers, roles, agents and
 * metadata filters, empty recall that never fails, status, the declared
 * recall modes (keyword, semantic), and, when the caller wires it, the
 * fallback to the builtin adapter when an optional package is missing.
 */
export function describeRetrievalAdapter(options: DescribeRetrievalAdapterOptions): void {
  const declared = options.capabilities;
  describe(`MemoryRetrievalAdapter conformance: ${options.name}`, () => {
    let project: TempProject;
    let adapter: MemoryRetrievalAdapter;
    beforeEach(async () => {
      project = await makeTempProject();
      await writeCorpus(project.root);
      adapter = await options.create(project.root);
      await adapter.init?.({
        dataDir: join(project.root, '.cairn', 'index'),
        vaultRoot: project.root,
      });
      await adapter.registerPools(POOLS);
      await adapter.indexPaths([
        memoryWorkspacePath(project.root),
        ...POOLS.map((p) => join(project.root, p.path)),
      ]);
    });
    afterEach(async () => {
      await options.cleanup?.(adapter);
      await project.cleanup();
    });

    it('declares its id and capabilities', () => {
      expect(adapter.id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      expect({ ...adapter.capabilities }).toEqual({ ...declared });
      expect(declared.keyword || declared.semantic || declared.graph).toBe(true);
    });

    it('recalls hot and warm pools by default and cold only when asked', async () => {
      expect(poolsOf(await adapter.recall({ agentId: 'bob', query: 'quokkaflare' }))).toEqual([
        'warm',
        'workspace',
      ]);
      const cold = await adapter.recall({ agentId: 'bob', query: 'quokkaflare', tiers: ['cold'] });
      expect(poolsOf(cold)).toEqual(['cold']);
    });

    it('honours agents, roles and pool ids', async () => {
      const alice = await adapter.recall({ agentId: 'alice', role: 'ops', query: 'quokkaflare' });
      expect(poolsOf(alice)).toEqual(['ops', 'warm', 'workspace']);
      expect(poolsOf(await adapter.recall({ agentId: 'alice', query: 'quokkaflare' }))).toEqual([
        'warm',
        'workspace',
      ]);
      expect(
        poolsOf(await adapter.recall({ agentId: 'bob', role: 'ops', query: 'quokkaflare' })),
      ).toEqual(['warm', 'workspace']);
      const onlyWarm = await adapter.recall({
        agentId: 'bob',
        query: 'quokkaflare',
        poolIds: ['warm'],
      });
      expect(poolsOf(onlyWarm)).toEqual(['warm']);
    });

    it('respects the limit and returns bounded snippets with ids and uris', async () => {
      const results = await adapter.recall({
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

    it('returns an empty list, never an error, when nothing matches or no pool is eligible', async () => {
      expect(await adapter.recall({ agentId: 'bob', query: 'zzqqxx nothing' })).toEqual([]);
      expect(
        await adapter.recall({ agentId: 'bob', query: 'quokkaflare', poolIds: ['missing'] }),
      ).toEqual([]);
    });

    it('reconciles to the registered pools (a dropped pool is no longer recalled)', async () => {
      await adapter.registerPools(POOLS.filter((p) => p.id !== 'warm'));
      expect(poolsOf(await adapter.recall({ agentId: 'bob', query: 'quokkaflare' }))).toEqual([
        'workspace',
      ]);
    });

    it('rejects malformed pools and queries with INVALID_INPUT', async () => {
      await expectCode(
        adapter.registerPools([{ id: '../x', tier: 'hot', path: '.' }]),
        'INVALID_INPUT',
      );
      await expectCode(adapter.recall({ agentId: '', query: 'x' }), 'INVALID_INPUT');
    });

    it('reports a healthy status when it has one', async (ctx) => {
      if (!adapter.status) return ctx.skip('the adapter has no status()');
      await adapter.recall({ agentId: 'bob', query: 'quokkaflare' });
      const status = await adapter.status();
      expect(status.ok).toBe(true);
      if (status.message !== undefined) expect(typeof status.message).toBe('string');
    });

    it('indexPaths picks up a new file, an edit and a deletion', async () => {
      const warm = join(project.root, 'pools/warm');
      await writeFile(join(warm, 'new.md'), '# New\n\nThe zebrafinch relay moved to rack nine.\n');
      await adapter.indexPaths([warm]);
      expect(poolsOf(await adapter.recall({ agentId: 'bob', query: 'zebrafinch' }))).toEqual([
        'warm',
      ]);
      await writeFile(
        join(warm, 'runbook.md'),
        '# Runbook\n\nRestart otterlamp with the ops script.\n',
      );
      await adapter.indexPaths([join(warm, 'runbook.md')]);
      const edited = await adapter.recall({ agentId: 'bob', query: 'otterlamp' });
      expect(edited.map((r) => r.metadata?.poolId)).toContain('warm');
      expect(edited.every((r) => !(r.snippet ?? '').includes('quokkaflare'))).toBe(true);
      await rm(join(warm, 'new.md'));
      await adapter.indexPaths([warm]);
      expect(await adapter.recall({ agentId: 'bob', query: 'zebrafinch' })).toEqual([]);
    });

    it('a rejected registerPools changes nothing', async () => {
      await expectCode(
        adapter.registerPools([...POOLS, { id: 'bad', tier: 'lukewarm' as 'hot', path: '.' }]),
        'INVALID_INPUT',
      );
      expect(poolsOf(await adapter.recall({ agentId: 'bob', query: 'quokkaflare' }))).toEqual([
        'warm',
        'workspace',
      ]);
    });

    it('re-registering a pool with another folder recalls the new folder', async () => {
      await adapter.registerPools([{ id: 'warm', tier: 'warm', path: 'pools/ops' }]);
      const results = await adapter.recall({ agentId: 'bob', query: 'quokkaflare keys rotate' });
      const warm = results.filter((r) => r.metadata?.poolId === 'warm');
      expect(warm.length).toBeGreaterThan(0);
      expect(warm.every((r) => (r.snippet ?? '').includes('rotate'))).toBe(true);
    });

    it('applies poolId and tier metadata filters and ranks best first', async () => {
      const all = { agentId: 'bob', query: 'quokkaflare', tiers: ['hot', 'warm', 'cold'] as const };
      const byPool = await adapter.recall({
        ...all,
        tiers: [...all.tiers],
        filters: { poolId: 'cold' },
      });
      expect(poolsOf(byPool)).toEqual(['cold']);
      const hot = await adapter.recall({ ...all, tiers: [...all.tiers], filters: { tier: 'hot' } });
      expect(poolsOf(hot)).toEqual(['workspace']);
      const ranked = await adapter.recall({ ...all, tiers: [...all.tiers] });
      const scores = ranked.map((r) => r.score ?? 0);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it('an empty or blank query recalls nothing, without an error', async () => {
      expect(await adapter.recall({ agentId: 'bob', query: '' })).toEqual([]);
      expect(await adapter.recall({ agentId: 'bob', query: '   ' })).toEqual([]);
    });

    if (declared.keyword) {
      it('keyword: finds a document by a distinctive word', async () => {
        const results = await adapter.recall({ agentId: 'bob', query: 'blue-green deploys' });
        expect(results[0]?.snippet).toContain('blue-green');
      });
    }

    if (declared.semantic) {
      it('semantic: finds a document by related wording with no exact word in common', async () => {
        const probe = options.semanticProbe ?? DEFAULT_SEMANTIC_PROBE;
        await writeFile(join(memoryWorkspacePath(project.root), '2026-03-02.md'), probe.document);
        await adapter.indexPaths([memoryWorkspacePath(project.root)]);
        const results = await adapter.recall({ agentId: 'bob', query: probe.query });
        const wanted = probe.document.trim().slice(0, 24);
        expect(results.some((r) => (r.snippet ?? r.content ?? '').includes(wanted))).toBe(true);
      });
    }

    const fallback = options.fallback;
    if (fallback) {
      it(`falls back to the builtin adapter with a warning when ${fallback.missingPackage} is missing`, async () => {
        const outcome = await fallback.run(project.root);
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
  });
}
