import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type MemoryRetrievalAdapter, memoryWorkspacePath } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AdapterSuite,
  describeModes,
  describePools,
  describeRecall,
  POOLS,
} from './describe-retrieval-parts';
import type { DescribeRetrievalAdapterOptions } from './retrieval-suite-options';
import { makeTempProject, type TempProject } from './tree-snapshot';

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
    const suite: AdapterSuite = { adapter: () => adapter, project: () => project };

    it('declares its id and capabilities', () => {
      expect(adapter.id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      expect({ ...adapter.capabilities }).toEqual({ ...declared });
      expect(declared.keyword || declared.semantic || declared.graph).toBe(true);
    });

    describeRecall(suite);
    describePools(suite);
    describeModes(suite, options);
  });
}

export type {
  DescribeRetrievalAdapterOptions,
  RetrievalFallbackOutcome,
} from './retrieval-suite-options';
