import { type BackendComposition, defineIndexBackend, type IndexedBackend } from '@cairn/index-kit';
import { MEM0_PUSHED_FILTERS, Mem0Index } from './mem0-index';
import {
  type Mem0BackendOptions,
  type ResolvedMem0Options,
  resolveMem0Options,
} from './mem0-options';
import { canFallBack } from './mem0-project';
import type { Mem0SyncStats } from './mirror';

/** The package's entry points, all built from its index registration. */
export const mem0 = defineIndexBackend<Mem0BackendOptions, ResolvedMem0Options, Mem0SyncStats>({
  type: 'mem0',
  name: 'Mem0 (markdown in .cairn/memory/, mirrored into Mem0 for search)',
  engine: 'Mem0',
  capabilities: { semantic: true, keyword: false, filters: MEM0_PUSHED_FILTERS, records: true },
  parseOptions: resolveMem0Options,
  canFallBack,
  create: ({ rootDir, dataDir, options }) => new Mem0Index(rootDir, options, dataDir),
});

/**
 * The Mem0 index as the engine registers it. Vector recall only: Mem0's
 * BM25 re-ranks vector hits, so there is no keyword guarantee.
 */
export const mem0Index = mem0.index;

/** Storage is the file workspace's (markdown, atomic writes); only search goes through Mem0. */
export const mem0Capabilities = mem0.capabilities;

export interface Mem0Backend extends IndexedBackend<Mem0SyncStats> {
  /** Mirrors the workspace's units and notes into Mem0 (incremental); same as `refresh`. */
  sync(rootDir: string): Promise<Mem0SyncStats>;
}

/**
 * A MemoryBackend whose storage is the file workspace (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search goes through
 * Mem0, into which the workspace's units and notes are mirrored. When Mem0
 * is missing or fails, search answers from `fallback` (the engine passes
 * the file index) with a warning. Called without options (as the engine's
 * optional-package loader may), it runs Mem0 OSS offline with the hash
 * embedder.
 */
export function createMem0Backend(
  options: Mem0BackendOptions = {},
  composition: BackendComposition = {},
): Mem0Backend {
  const backend = mem0.createBackend(options, composition);
  return Object.assign(backend, { sync: (rootDir: string) => backend.refresh(rootDir) });
}
