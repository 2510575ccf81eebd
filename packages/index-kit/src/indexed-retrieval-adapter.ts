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
  type PoolSource,
  type PoolTarget,
  parseInput,
  type RetrievalAdapterCapabilities,
  type RetrievalAdapterFactoryOptions,
} from '@cairn/core';
import { indexStatus, recallFromIndex, WORKSPACE_TIERS, wantedTiers } from './index-filters';
import { canFallBackByDefault, warningSink } from './indexed-backend';
import {
  coversFolder,
  eligible,
  folderPoolSource,
  isDirectory,
  poolFolder,
  registerPoolDefinitions,
  workspacePoolOf,
  workspacePoolTarget,
} from './pool-definitions';

/** Builds the file adapter standing behind an index. */
export type AdapterFallback = (
  factory: RetrievalAdapterFactoryOptions,
  composition: { sourcePools: readonly SourcePool[] },
) => MemoryRetrievalAdapter;

/**
 * A pool whose markdown comes from a source of its own rather than a
 * folder of `*.md` (the project's documents): always registered, like the
 * workspace, unless a registered definition takes its id.
 */
export interface SourcePool {
  definition: MemoryPoolDefinition;
  source: PoolSource;
}

/** How the composer builds the adapter around the index. */
export interface IndexedAdapterComposition<Stats extends MemoryIndexStats> {
  /** The adapter answering when the engine is missing or failing (the file adapter). */
  fallback?: AdapterFallback;
  /**
   * The index to search, shared with the backend of the same engine (one
   * refresh, one open database); its owner closes it. Default: the adapter
   * creates its own on first use.
   */
  index?: MemoryIndex<Stats>;
  sourcePools?: readonly SourcePool[];
}

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

/** A registered pool as the index sees it: the workspace files, its own source, or its folder's markdown. */
function poolTarget(
  rootDir: string,
  pool: MemoryPoolDefinition,
  workspace: boolean,
  source?: PoolSource,
): PoolTarget {
  if (workspace) return workspacePoolTarget(rootDir);
  const base = poolFolder(rootDir, pool);
  return {
    id: pool.id,
    tier: pool.tier,
    base,
    source: source ?? folderPoolSource(base),
    ...(pool.agents ? { agents: pool.agents } : {}),
  };
}

/** One adapter's state: its pools, its index (created on first use) and whether it is reconciled. */
interface AdapterState<Options extends MemoryIndexCommonOptions, Stats extends MemoryIndexStats> {
  registration: MemoryIndexRegistration<Options, Stats>;
  rootDir: string;
  options: Options;
  warn: (message: string) => void;
  workspacePool: MemoryPoolDefinition;
  /** Pools with a source of their own, by definition. */
  sources: Map<MemoryPoolDefinition, PoolSource>;
  pools: MemoryPoolDefinition[];
  reconciled: boolean;
  dataDir?: string;
  index?: MemoryIndex<Stats>;
  capabilities: MemoryIndexCapabilities;
  sourcePools: readonly SourcePool[];
  /** The file adapter standing behind the index, if the composer passed one. */
  fallback: MemoryRetrievalAdapter | undefined;
  canFallBack: (error: unknown) => boolean;
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

type TargetState = Pick<AdapterState<never, never>, 'rootDir' | 'workspacePool' | 'sources'>;

function targetOf(state: TargetState, pool: MemoryPoolDefinition): PoolTarget {
  const workspace = pool === state.workspacePool;
  return poolTarget(state.rootDir, pool, workspace, state.sources.get(pool));
}

function targetsOf(state: TargetState & { pools: MemoryPoolDefinition[] }) {
  return state.pools.map((pool) => targetOf(state, pool));
}

/** The workspace answers hot and warm (per chunk); every other pool its own tier. */
function eligibleNow(
  pool: MemoryPoolDefinition,
  workspace: MemoryPoolDefinition,
  query: NormalizedMemoryQuery,
): boolean {
  const tiers = wantedTiers(query);
  const asked = pool === workspace ? WORKSPACE_TIERS.filter((t) => tiers.includes(t)) : tiers;
  return (
    asked.length > 0 &&
    eligible(pool, { ...query, tiers: pool === workspace ? [pool.tier] : asked })
  );
}

/** Registered definitions, with the source pools no definition replaced. */
function withSourcePools(
  pools: MemoryPoolDefinition[],
  sourcePools: readonly SourcePool[],
): MemoryPoolDefinition[] {
  const taken = new Set(pools.map((pool) => pool.id));
  return [
    ...pools,
    ...sourcePools.filter((p) => !taken.has(p.definition.id)).map((p) => p.definition),
  ];
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

/** Rethrows unless the fallback may answer instead; then warns that it does. */
function fallBackOrThrow<O extends MemoryIndexCommonOptions, S extends MemoryIndexStats>(
  state: AdapterState<O, S>,
  error: unknown,
): void {
  if (!state.fallback || !state.canFallBack(error)) throw error;
  state.warn(
    `${state.registration.engine} recall failed, using the file adapter instead: ${formatError(error)}`,
  );
}

async function registerPools<O extends MemoryIndexCommonOptions, S extends MemoryIndexStats>(
  state: AdapterState<O, S>,
  definitions: MemoryPoolDefinition[],
): Promise<void> {
  const registered = registerPoolDefinitions(definitions, state.workspacePool);
  state.pools = withSourcePools(registered.pools, state.sourcePools);
  state.reconciled = false;
  await state.fallback?.registerPools(registered.parsed);
}

async function indexPaths<O extends MemoryIndexCommonOptions, S extends MemoryIndexStats>(
  state: AdapterState<O, S>,
  paths: string[],
): Promise<void> {
  const wanted = paths.map((path) => resolve(state.rootDir, path));
  const targets = targetsOf(state).filter((t) => coversFolder(wanted, t.base));
  await refreshTargets(state, targets).catch((error) => fallBackOrThrow(state, error));
}

async function recall<O extends MemoryIndexCommonOptions, S extends MemoryIndexStats>(
  state: AdapterState<O, S>,
  input: MemoryQuery,
): Promise<MemoryResult[]> {
  const query = parseInput(memoryQuerySchema, input, 'memory query');
  const targets = state.pools
    .filter((pool) => eligibleNow(pool, state.workspacePool, query))
    .map((pool) => targetOf(state, pool))
    .filter((t) => isDirectory(t.base));
  if (targets.length === 0 || query.query.trim() === '') return [];
  try {
    // The first recall after registerPools reconciles; the search refreshes what it reads.
    if (!state.reconciled) await refreshTargets(state, []);
    return await recallFromIndex(state.capabilities, indexOf(state), targets, query);
  } catch (error) {
    fallBackOrThrow(state, error);
    return state.fallback!.recall(input);
  }
}

/** The state of a new adapter: the workspace and the source pools, nothing to reconcile yet. */
function adapterState<Options extends MemoryIndexCommonOptions, Stats extends MemoryIndexStats>(
  registration: MemoryIndexRegistration<Options, Stats>,
  root: string,
  options: Options,
  composition: IndexedAdapterComposition<Stats>,
  warn: (message: string) => void,
): AdapterState<Options, Stats> {
  const rootDir = resolve(root);
  const workspacePool = workspacePoolOf(rootDir);
  const sourcePools = composition.sourcePools ?? [];
  return {
    ...{ registration, rootDir, options, warn, workspacePool, sourcePools },
    sources: new Map(sourcePools.map((pool) => [pool.definition, pool.source])),
    pools: withSourcePools([workspacePool], sourcePools),
    // Nothing registered yet, nothing to reconcile: stale pools of another run only cost disk space.
    reconciled: true,
    ...(composition.index ? { index: composition.index } : {}),
    capabilities: capabilitiesOf(registration, options),
    fallback: composition.fallback?.({ rootDir }, { sourcePools }),
    canFallBack: registration.canFallBack ?? canFallBackByDefault,
  };
}

/**
 * A MemoryRetrievalAdapter (seed 001) over any index: the workspace (hot
 * and warm, per chunk), pools with a source of their own (the project's
 * documents) and registered pool folders, recalled with pools, tiers and
 * agents honoured and the filters the index declares pushed down (the
 * others checked on each hit). Pull-based: recall refreshes the eligible
 * pools first. When the engine is missing or fails, the fallback adapter
 * (the file adapter, passed in by whoever composes) answers, with a
 * warning, and `status()` says why; without one the failure is thrown.
 */
export function createIndexedRetrievalAdapter<
  Options extends MemoryIndexCommonOptions,
  Stats extends MemoryIndexStats,
>(
  registration: MemoryIndexRegistration<Options, Stats>,
  factory: RetrievalAdapterFactoryOptions,
  composition: IndexedAdapterComposition<Stats> = {},
): IndexedRetrievalAdapter<Stats> {
  const options = registration.parseOptions(factory.options ?? {});
  const { warnings, warn } = warningSink(options.onWarning);
  const state = adapterState(registration, factory.rootDir, options, composition, warn);
  return {
    id: registration.type,
    capabilities: recallCapabilities({ capabilities: state.capabilities }),
    warnings,
    async init(opts) {
      if (!state.index) state.dataDir = opts.dataDir;
    },
    registerPools: (definitions) => registerPools(state, definitions),
    indexPaths: (paths) => indexPaths(state, paths),
    recall: (input: MemoryQuery) => recall(state, input),
    rebuild: () => refreshTargets(state, targetsOf(state), true),
    status: () => indexStatus(registration.engine, indexOf(state), state.pools, warnings),
    // A shared index is its owner's to close.
    close: async () => {
      if (!composition.index) await state.index?.close();
    },
  };
}
