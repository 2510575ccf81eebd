import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
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
}

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
 * pools and tiers, agent and role eligibility, indexPaths, empty recall
 * that never fails, status, and the declared recall modes.
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

    it('reports status when it has one', async (ctx) => {
      if (!adapter.status) return ctx.skip('the adapter has no status()');
      const status = await adapter.status();
      expect(typeof status.ok).toBe('boolean');
    });

    if (declared.keyword) {
      it('keyword: finds a document by a distinctive word', async () => {
        const results = await adapter.recall({ agentId: 'bob', query: 'blue-green deploys' });
        expect(results[0]?.snippet).toContain('blue-green');
      });
    }
  });
}
