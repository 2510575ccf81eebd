import { resolve } from 'node:path';
import {
  formatError,
  type MemoryAdapterStatus,
  type MemoryIndex,
  type MemoryIndexCapabilities,
  type MemoryIndexCommonOptions,
  type MemoryIndexRegistration,
  type MemoryIndexStats,
  type MemoryPoolDefinition,
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  memoryQuerySchema,
  type NormalizedMemoryQuery,
  type PoolTarget,
  parseInput,
  type RetrievalAdapterCapabilities,
  type RetrievalAdapterFactoryOptions,
} from '@cairn/core';
import { passesIndexFilters, recallIndexFilters, splitIndexFilters } from './index-filters';
import { recallResultOfHit } from './index-hits';
import { canFallBackByDefault } from './indexed-backend';
import { queryTerms } from './keyword-scan';
import {
  byScore,
  coversFolder,
  isDirectory,
  poolFolder,
  poolSummaries,
  registerPoolDefinitions,
  workspacePoolOf,
} from './pool-definitions';
import { eligible } from './pool-filters';
import { folderPoolSource, workspacePoolTarget } from './pool-sources';
import { warningSink } from './warning-sink';

/** Builds the file adapter standing behind an index. */
export type AdapterFallback = (factory: RetrievalAdapterFactoryOptions) => MemoryRetrievalAdapter;

export interface IndexedRetrievalAdapter<Stats extends MemoryIndexStats = MemoryIndexStats>
  extends MemoryRetrievalAdapter {
  /** Fallbacks so far, each once. */
  readonly warnings: readonly string[];
  /** The index's state; `ok: false` with the reason while recall falls back. */
  status(): Promise<MemoryAdapterStatus>;
  /** Drops the index and indexes every registered pool again (`cairn reindex`). */
  rebuild(): Promise<Stats>;
  close(): Promise<void>;
}

/** The recall capabilities of an index: what it declares, never a graph. */
export function recallCapabilities(
  registration: Pick<MemoryIndexRegistration, 'capabilities'>,
): RetrievalAdapterCapabilities {
  const { semantic, keyword } = registration.capabilities;
  return { semantic, keyword, graph: false };
}

/** What the index can do with these options. */
function capabilitiesOf<Options extends MemoryIndexCommonOptions, Stats extends MemoryIndexStats>(
  registration: MemoryIndexRegistration<Options, Stats>,
  options: Options,
): MemoryIndexCapabilities {
  return registration.capabilitiesFor?.(options) ?? registration.capabilities;
}

/** A registered pool as the index sees it; the builtin workspace pool reads the workspace files. */
function poolTarget(rootDir: string, pool: MemoryPoolDefinition, workspace: boolean): PoolTarget {
  if (workspace) return workspacePoolTarget(rootDir);
  const base = poolFolder(rootDir, pool);
  return {
    id: pool.id,
    tier: pool.tier,
    base,
    source: folderPoolSource(base),
    ...(pool.agents ? { agents: pool.agents } : {}),
  };
}

/** The index side of recall: filters pushed down, the rest checked after, best first. */
async function recallFromIndex(
  capabilities: MemoryIndexCapabilities,
  index: MemoryIndex<MemoryIndexStats>,
  targets: PoolTarget[],
  query: NormalizedMemoryQuery,
): Promise<MemoryResult[]> {
  const terms = queryTerms(query.query);
  const split = splitIndexFilters(recallIndexFilters(query.filters), capabilities);
  const hits = await index.search({
    text: query.query,
    terms,
    pools: targets,
    tiers: query.tiers,
    agentId: query.agentId,
    filters: split.pushed,
    limit: query.limit,
    postFiltered: split.postFiltered,
  });
  const byId = new Map(targets.map((t) => [t.id, t]));
  return hits
    .filter((hit) => byId.has(hit.pool))
    .map((hit) => recallResultOfHit(hit, byId.get(hit.pool)!, terms))
    .filter((result) => !split.postFiltered || passesIndexFilters(result.metadata!, split.rest))
    .sort(byScore)
    .slice(0, query.limit);
}

async function indexStatus(
  engine: string,
  index: MemoryIndex<MemoryIndexStats>,
  pools: MemoryPoolDefinition[],
  warnings: readonly string[],
): Promise<MemoryAdapterStatus> {
  const details = { pools: poolSummaries(pools) };
  try {
    const described = await index.describe();
    const extra = warnings.length > 0 ? { warnings: [...warnings] } : {};
    return {
      ok: true,
      message: `${described.summary} over ${pools.length} pool(s)`,
      details: { ...details, ...described.details, ...extra },
    };
  } catch (error) {
    return {
      ok: false,
      message: `${engine} unavailable, recall uses the file adapter: ${formatError(error)}`,
      details: { ...details, fallback: 'file', warnings: [...warnings, formatError(error)] },
    };
  }
}

/** One adapter's state: its pools, its index (created on first use) and whether it is reconciled. */
interface AdapterState<Options extends MemoryIndexCommonOptions, Stats extends MemoryIndexStats> {
  registration: MemoryIndexRegistration<Options, Stats>;
  rootDir: string;
  options: Options;
  warn: (message: string) => void;
  workspacePool: MemoryPoolDefinition;
  pools: MemoryPoolDefinition[];
  reconciled: boolean;
  dataDir?: string;
  index?: MemoryIndex<Stats>;
}

function indexOf<O extends MemoryIndexCommonOptions, S extends MemoryIndexStats>(
  state: AdapterState<O, S>,
): MemoryIndex<S> {
  state.index ??= state.registration.create({
    rootDir: state.rootDir,
    options: state.options,
    warn: state.warn,
    ...(state.dataDir ? { dataDir: state.dataDir } : {}),
  });
  return state.index;
}

function targetsOf(state: Pick<AdapterState<never, never>, 'pools' | 'rootDir' | 'workspacePool'>) {
  return state.pools.map((pool) => poolTarget(state.rootDir, pool, pool === state.workspacePool));
}

/** Refreshes the targets whose folder exists, reconciling the index to the pools first. */
async function refreshTargets<O extends MemoryIndexCommonOptions, S extends MemoryIndexStats>(
  state: AdapterState<O, S>,
  targets: PoolTarget[],
  rebuild = false,
): Promise<S> {
  const keepOnly = state.reconciled ? undefined : targetsOf(state);
  const stats = await indexOf(state).refresh(
    targets.filter((t) => isDirectory(t.base)),
    { ...(keepOnly ? { keepOnly } : {}), ...(rebuild ? { rebuild } : {}) },
  );
  state.reconciled = true;
  return stats;
}

/**
 * A MemoryRetrievalAdapter (seed 001) over any index: the workspace (hot)
 * and registered pool folders, recalled with pools, tiers and agents
 * honoured and the filters the index declares pushed down (the others
 * checked on each hit). Pull-based: recall refreshes the eligible pools
 * first. When the engine is missing or fails, the fallback adapter (the
 * file adapter, passed in by whoever composes) answers, with a warning,
 * and `status()` says why; without one the failure is thrown.
 */
export function createIndexedRetrievalAdapter<
  Options extends MemoryIndexCommonOptions,
  Stats extends MemoryIndexStats,
>(
  registration: MemoryIndexRegistration<Options, Stats>,
  factory: RetrievalAdapterFactoryOptions,
  composition: { fallback?: AdapterFallback } = {},
): IndexedRetrievalAdapter<Stats> {
  const rootDir = resolve(factory.rootDir);
  const options = registration.parseOptions(factory.options ?? {});
  const { warnings, warn } = warningSink(options.onWarning);
  const workspacePool = workspacePoolOf(rootDir);
  const state: AdapterState<Options, Stats> = {
    ...{ registration, rootDir, options, warn, workspacePool },
    pools: [workspacePool],
    reconciled: false,
  };
  const capabilities = capabilitiesOf(registration, options);
  const fallback = composition.fallback?.({ rootDir });
  const canFallBack = registration.canFallBack ?? canFallBackByDefault;
  const fellBack = (error: unknown) => {
    if (!fallback || !canFallBack(error)) throw error;
    warn(
      `${registration.engine} recall failed, using the file adapter instead: ${formatError(error)}`,
    );
  };
  const targetsNow = () => targetsOf(state);

  return {
    id: registration.type,
    capabilities: recallCapabilities({ capabilities }),
    warnings,
    async init(opts) {
      if (!state.index) state.dataDir = opts.dataDir;
    },
    async registerPools(definitions) {
      const registered = registerPoolDefinitions(definitions, workspacePool);
      state.pools = registered.pools;
      state.reconciled = false;
      await fallback?.registerPools(registered.parsed);
    },
    async indexPaths(paths) {
      const wanted = paths.map((path) => resolve(rootDir, path));
      const targets = targetsNow().filter((t) => coversFolder(wanted, t.base));
      await refreshTargets(state, targets).catch(fellBack);
    },
    async recall(input: MemoryQuery) {
      const query = parseInput(memoryQuerySchema, input, 'memory query');
      const targets = state.pools
        .filter((pool) => eligible(pool, query))
        .map((pool) => poolTarget(rootDir, pool, pool === workspacePool))
        .filter((t) => isDirectory(t.base));
      if (targets.length === 0 || query.query.trim() === '') return [];
      try {
        // The first recall after registerPools reconciles; the search refreshes what it reads.
        if (!state.reconciled) await refreshTargets(state, []);
        return await recallFromIndex(capabilities, indexOf(state), targets, query);
      } catch (error) {
        fellBack(error);
        return fallback!.recall(input);
      }
    },
    rebuild: () => refreshTargets(state, targetsNow(), true),
    status: () => indexStatus(registration.engine, indexOf(state), state.pools, warnings),
    close: async () => state.index?.close(),
  };
}
