import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  memoryWorkspacePath,
  type RetrievalAdapterCapabilities,
} from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AdapterSuite,
  describeModes,
  describePools,
  describeRecall,
  POOLS,
} from './describe-retrieval-parts';
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
