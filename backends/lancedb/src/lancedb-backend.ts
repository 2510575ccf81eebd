import { defineIndexBackend, type IndexedBackend } from '@cairn/index-kit';
import { LancedbIndex } from './lancedb-index';
import {
  databaseUri,
  defaultRepo,
  type LancedbBackendOptions,
  type ResolvedLancedbOptions,
  resolveLancedbOptions,
} from './lancedb-options';
import { LANCEDB_PUSHED_FILTERS } from './query-filters';
import type { LancedbRefreshStats } from './refresh-pool';

/** The package's entry points, all built from its index registration. */
export const lancedb = defineIndexBackend<
  LancedbBackendOptions,
  ResolvedLancedbOptions,
  LancedbRefreshStats
>({
  type: 'lancedb',
  name: 'LanceDB (markdown in .cairn/memory/, hybrid search in LanceDB)',
  engine: 'LanceDB',
  capabilities: { semantic: true, keyword: true, filters: LANCEDB_PUSHED_FILTERS, records: true },
  parseOptions: resolveLancedbOptions,
  create: ({ rootDir, dataDir, options, warn }) =>
    new LancedbIndex(
      databaseUri(rootDir, options.uri, dataDir),
      options.repo ?? defaultRepo(rootDir),
      options,
      warn,
    ),
});

/**
 * The LanceDB index as the engine registers it: hybrid vector + full-text
 * search over one table derived from the markdown, with every filter
 * pushed down as a predicate. The generic code builds the backend and the
 * retrieval adapter from it.
 */
export const lancedbIndex = lancedb.index;

/** Storage is the file workspace's: markdown, atomic writes. Only search differs. */
export const lancedbCapabilities = lancedb.capabilities;

/** The LanceDB backend: refresh and rebuild report LanceDB's counts. */
export type LancedbBackend = IndexedBackend<LancedbRefreshStats>;

/**
 * A MemoryBackend whose storage is the file workspace (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search is hybrid
 * vector + full-text over a LanceDB table derived from that markdown. When
 * LanceDB is missing or fails, search falls back to `fallback` (the engine
 * passes the file index) with a warning.
 */
export const createLancedbBackend = lancedb.createBackend;
