import { join, resolve } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import {
  formatError,
  type MemoryAdapterStatus,
  type MemoryPoolDefinition,
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  memoryQuerySchema,
  memoryWorkspacePath,
  type NormalizedMemoryQuery,
  parseInput,
  type RetrievalAdapterCapabilities,
  type RetrievalAdapterFactoryOptions,
  type RetrievalAdapterRegistration,
  rawMemoryId,
} from '@cairn/core';
import {
  boundSnippet,
  byScore,
  eligible,
  isDirectory,
  poolFolder,
  poolSummaries,
  queryTerms,
  recallMetadata,
  registerPoolDefinitions,
  warningSink,
  workspacePoolOf,
} from '@cairn/index-kit';
import { resolveMem0Options } from './mem0-options';
import { canFallBack, hitFields, Mem0Project } from './mem0-project';
import type { Mem0Condition, Mem0Hit } from './mem0-store';
import type { Mem0SyncStats } from './mirror';
import { folderSource, type MirrorSource, WORKSPACE_KEY, workspaceSource } from './sources';

/** Vector recall through Mem0; its BM25 only re-ranks vector hits, so no keyword guarantee. */
export const mem0RetrievalCapabilities = {
  semantic: true,
  keyword: false,
  graph: false,
} as const satisfies RetrievalAdapterCapabilities;

const SNIPPET_CHARS = 320;
/** Metadata Mem0 stores on each entry and can filter on itself. */
const STORED_KEYS = new Set(['path', 'kind', 'category', 'review', 'memoryId']);

export interface Mem0RetrievalAdapter extends MemoryRetrievalAdapter {
  status(): Promise<MemoryAdapterStatus>;
  /** Clears the project's entries in Mem0 and mirrors every registered pool again. */
  rebuild(): Promise<Mem0SyncStats>;
  close(): Promise<void>;
}

interface Target {
  pool: MemoryPoolDefinition;
  /** The folder hit paths are relative to. */
  base: string;
  source: MirrorSource;
}

const listOf = (wanted: string | string[]) => (Array.isArray(wanted) ? wanted : [wanted]);

/** Query filters split: pool-level keys narrow the targets, stored keys go to Mem0, the rest is checked after. */
function splitFilters(filters: NormalizedMemoryQuery['filters'], targets: Target[]) {
  const where: Record<string, Mem0Condition> = {};
  const rest: [string, string[]][] = [];
  let kept = targets;
  for (const [key, wanted] of Object.entries(filters ?? {})) {
    const values = listOf(wanted);
    if (key === 'poolId') kept = kept.filter((t) => values.includes(t.pool.id));
    else if (key === 'tier') kept = kept.filter((t) => values.includes(t.pool.tier));
    else if (STORED_KEYS.has(key)) where[key] = { in: values };
    else rest.push([key, values]);
  }
  if (!where.review) where.review = { ne: 'deprecated' };
  return { where, rest, targets: kept };
}

function toResult(hit: Mem0Hit, target: Target, terms: string[]): MemoryResult {
  const f = hitFields(hit);
  const workspace = target.source.key === WORKSPACE_KEY;
  const id = f.memoryId
    ? f.memoryId
    : workspace
      ? rawMemoryId(f)
      : `${target.pool.id}:${f.path}:${f.startLine}`;
  return {
    id,
    uri: join(target.base, ...f.path.split('/')),
    score: hit.score,
    snippet: boundSnippet(hit.text, terms, SNIPPET_CHARS),
    metadata: { ...recallMetadata(target.pool, f), mem0Id: hit.id },
  };
}

/**
 * The Mem0 retrieval adapter: the workspace (hot pool) and registered pool
 * folders mirrored into Mem0 and recalled by vector similarity, with pools,
 * review state and stored metadata pushed down as Mem0 filters. Recall
 * syncs the eligible pools first (stat calls only when nothing changed).
 * When Mem0 is missing or fails, recall answers from the file adapter and
 * `status()` says why.
 */
export function createMem0RetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
): Mem0RetrievalAdapter {
  const rootDir = resolve(factory.rootDir);
  let resolved = resolveMem0Options(factory.options ?? {});
  const { warnings, warn } = warningSink(resolved.onWarning);
  const workspacePool = workspacePoolOf(rootDir);
  let pools: MemoryPoolDefinition[] = [workspacePool];
  let reconciled = false;
  let project: Mem0Project | undefined;
  const projectOf = () => {
    project ??= new Mem0Project(rootDir, resolved);
    return project;
  };
  const fallback = createFileRetrievalAdapter({ rootDir });
  const targetOf = (pool: MemoryPoolDefinition): Target => {
    if (pool === workspacePool) {
      return { pool, base: memoryWorkspacePath(rootDir), source: workspaceSource(rootDir) };
    }
    const base = poolFolder(rootDir, pool);
    return { pool, base, source: folderSource(base) };
  };
  /** Mirrors `targets`; the first time after registerPools, every pool, dropping unregistered ones. */
  const sync = async (targets: Target[], rebuild = false) => {
    const all = !reconciled || rebuild;
    const sources = (all ? pools.map(targetOf) : targets).map((t) => t.source);
    const unique = [...new Map(sources.map((s) => [s.key, s])).values()];
    const stats = await projectOf().sync({ sources: unique, prune: all, rebuild });
    reconciled = true;
    return stats;
  };

  async function recallFromMem0(query: NormalizedMemoryQuery, eligibleTargets: Target[]) {
    const split = splitFilters(query.filters, eligibleTargets);
    if (split.targets.length === 0) return [];
    await sync(split.targets);
    const byKey = new Map<string, Target[]>();
    for (const t of split.targets) byKey.set(t.source.key, [...(byKey.get(t.source.key) ?? []), t]);
    const hits = await projectOf().search({
      query: query.query,
      topK: split.rest.length > 0 ? Math.max(query.limit * 4, 50) : query.limit,
      threshold: resolved.threshold,
      where: { ...split.where, pool: { in: [...byKey.keys()] } },
    });
    const terms = queryTerms(query.query);
    return hits
      .flatMap((hit) =>
        (byKey.get(String(hit.metadata.pool)) ?? []).map((t) => toResult(hit, t, terms)),
      )
      .filter((r) =>
        split.rest.every(([key, values]) => values.includes(String(r.metadata?.[key] ?? ''))),
      )
      .sort(byScore)
      .slice(0, query.limit);
  }

  return {
    id: 'mem0',
    capabilities: mem0RetrievalCapabilities,
    async init({ dataDir }) {
      // The host's index folder, unless the options chose one.
      if (!resolved.dataDir && !project) resolved = { ...resolved, dataDir: join(dataDir, 'mem0') };
    },
    async registerPools(definitions) {
      pools = registerPoolDefinitions(definitions, workspacePool).pools;
      reconciled = false;
    },
    async indexPaths() {
      await sync([], false).catch((error) => {
        if (!canFallBack(error)) throw error;
        warn(`Mem0 indexing failed; recall uses the file adapter: ${formatError(error)}`);
      });
    },
    async recall(input: MemoryQuery) {
      const query = parseInput(memoryQuerySchema, input, 'memory query');
      const targets = pools.filter((p) => eligible(p, query)).map(targetOf);
      const present = targets.filter((t) => isDirectory(t.base));
      if (present.length === 0 || query.query.trim() === '') return [];
      try {
        return await recallFromMem0(query, present);
      } catch (error) {
        if (!canFallBack(error)) throw error;
        warn(`Mem0 recall failed, using the file adapter instead: ${formatError(error)}`);
        await fallback.registerPools(pools.filter((p) => p !== workspacePool));
        return fallback.recall(input);
      }
    },
    async status() {
      return {
        ok: true,
        message: `Mem0 ${resolved.mode} over ${pools.length} pool(s)`,
        details: {
          mode: resolved.mode,
          scope: resolved.scope,
          namespace: projectOf().namespace,
          pools: poolSummaries(pools),
          ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
        },
      };
    },
    rebuild: () => sync([], true),
    async close() {
      await project?.close();
      project = undefined;
    },
  };
}

/** The registration the engine loads by convention (`<id>RetrievalAdapter`). */
export const mem0RetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'mem0',
  capabilities: mem0RetrievalCapabilities,
  create: (options) => createMem0RetrievalAdapter(options),
};
