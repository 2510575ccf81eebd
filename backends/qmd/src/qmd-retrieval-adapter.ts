import { createHash } from 'node:crypto';
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
  type NormalizedMemoryQuery,
  parseInput,
  type RetrievalAdapterCapabilities,
  type RetrievalAdapterFactoryOptions,
  type RetrievalAdapterRegistration,
} from '@cairn/core';
import {
  coversFolder,
  eligible,
  isDirectory,
  matchesFilters,
  poolFolder,
  poolSummaries,
  queryTerms,
  recallMetadata,
  registerPoolDefinitions,
  warningSink,
  workspacePoolOf,
} from '@cairn/index-kit';
import { folderSignature } from './markdown-signature';
import { canFallBack, fetchLimit, searchCollections, workspaceSpec } from './qmd-backend';
import { QMD_INSTALL_COMMAND, resolveQmdCommand } from './qmd-command';
import { chunkSnippet, termRoots } from './qmd-hits';
import { type QmdCollectionSpec, QmdIndex } from './qmd-index';
import { QMD_INDEX_DIR, qmdIndexDir, resolveQmdOptions } from './qmd-options';
import {
  folderHitSource,
  type HitSource,
  type ResolvedChunk,
  resolveHits,
  workspaceHitSource,
} from './resolve-hits';

/** qmd's `search` is BM25 only; its vector modes need GGUF models Cairn never downloads. */
export const qmdRetrievalCapabilities = {
  semantic: false,
  keyword: true,
  graph: false,
} as const satisfies RetrievalAdapterCapabilities;

const SNIPPET_CHARS = 320;

export interface QmdRetrievalAdapter extends MemoryRetrievalAdapter {
  readonly warnings: readonly string[];
  status(): Promise<MemoryAdapterStatus>;
  close(): Promise<void>;
}

interface PoolTarget {
  pool: MemoryPoolDefinition;
  spec: QmdCollectionSpec;
  source: HitSource;
}

/** Metadata filters: each key equals the value or one of the values; deprecated units only on request. */
function passes(metadata: Record<string, unknown>, filters: NormalizedMemoryQuery['filters']) {
  const reviewFiltered = Object.keys(filters ?? {}).includes('review');
  if (metadata.review === 'deprecated' && !reviewFiltered) return false;
  return matchesFilters(metadata, filters);
}

function toResult(resolved: ResolvedChunk, pool: MemoryPoolDefinition, roots: string[]) {
  const { chunk, path, source } = resolved;
  const result: MemoryResult = {
    id: `${pool.id}:${path}:${chunk.startLine}`,
    uri: join(source.base, ...path.split('/')),
    score: resolved.score,
    snippet: chunkSnippet(chunk, roots, SNIPPET_CHARS),
    metadata: recallMetadata(pool, { ...chunk, path }),
  };
  return result;
}

/** One `qmd search` over the eligible pools' collections, mapped back to chunks and filtered. */
async function recallThroughQmd(
  index: QmdIndex,
  targets: PoolTarget[],
  query: NormalizedMemoryQuery,
  terms: string[],
): Promise<MemoryResult[]> {
  const specs = targets.map((t) => t.spec);
  const hits = await searchCollections(index, specs, terms.join(' '), fetchLimit(query.limit));
  const roots = termRoots(terms);
  const sources = targets.map((t) => t.source);
  const { chunks, stale } = await resolveHits(hits, sources, roots);
  if (stale > 0) index.scheduleUpdate(specs);
  const poolOf = new Map(targets.map((t) => [t.source, t.pool]));
  return chunks
    .map((chunk) => toResult(chunk, poolOf.get(chunk.source)!, roots))
    .filter((result) => passes(result.metadata ?? {}, query.filters))
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0))
    .slice(0, query.limit);
}

/** A registered pool folder as its own qmd collection, named after the workspace's. */
function folderTarget(
  workspaceName: string,
  rootDir: string,
  pool: MemoryPoolDefinition,
): PoolTarget {
  const base = poolFolder(rootDir, pool);
  const hash = createHash('sha256').update(`${pool.id}\0${base}`).digest('hex').slice(0, 8);
  const name = `${workspaceName}-pool-${hash}`;
  const spec = { name, dir: base, signature: () => folderSignature(base) };
  return { pool, spec, source: folderHitSource(name, base) };
}

function adapterStatus(
  indexDir: string | undefined,
  pools: MemoryPoolDefinition[],
  warnings: readonly string[],
): MemoryAdapterStatus {
  const details = {
    indexDir: indexDir ?? null,
    pools: poolSummaries(pools),
    ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
  };
  if (!indexDir) {
    return {
      ok: false,
      message: `qmd is not installed; recall uses the file adapter (${QMD_INSTALL_COMMAND})`,
      details,
    };
  }
  return { ok: true, message: `qmd BM25 search over ${pools.length} pool(s)`, details };
}

/**
 * The qmd retrieval adapter: the workspace (hot, the same collection the
 * qmd backend searches) and every registered pool folder as qmd
 * collections, recalled with one `qmd search` over the eligible ones.
 * Pull-based: recall re-indexes first when the markdown changed. When qmd
 * is missing, fails or times out, recall answers from the builtin file
 * adapter, with the reason in `warnings` and `status()`.
 */
export function createQmdRetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
): QmdRetrievalAdapter {
  const rootDir = resolve(factory.rootDir);
  const options = resolveQmdOptions(factory.options ?? {});
  const { warnings, warn } = warningSink(options.onWarning);
  const command = resolveQmdCommand(options.command);
  const fallback = createFileRetrievalAdapter({ rootDir });
  const workspace = workspaceSpec(rootDir, options);
  const workspacePool = workspacePoolOf(rootDir);
  let pools: MemoryPoolDefinition[] = [workspacePool];
  let dataDir: string | undefined;
  let index: QmdIndex | undefined;
  const indexOf = () => {
    const dir =
      options.indexDir || !dataDir
        ? qmdIndexDir(rootDir, options.indexDir)
        : join(dataDir, QMD_INDEX_DIR);
    index ??= new QmdIndex(dir, command!, options, warn);
    return index;
  };
  const workspaceTarget: PoolTarget = {
    pool: workspacePool,
    spec: workspace,
    source: workspaceHitSource(workspace.name, rootDir, workspace.dir),
  };
  const targetOf = (pool: MemoryPoolDefinition): PoolTarget =>
    pool === workspacePool ? workspaceTarget : folderTarget(workspace.name, rootDir, pool);
  const fellBack = (error: unknown) => {
    if (!canFallBack(error)) throw error;
    warn(`qmd recall failed, using the file adapter instead: ${formatError(error)}`);
  };

  return {
    id: 'qmd',
    capabilities: qmdRetrievalCapabilities,
    warnings,
    async init(opts) {
      if (!index) dataDir = opts.dataDir;
    },
    async registerPools(definitions) {
      const registered = registerPoolDefinitions(definitions, workspacePool);
      pools = registered.pools;
      await fallback.registerPools(registered.parsed);
      if (!command) return;
      // Collections of dropped pools only cost disk space; recall never asks for them.
      await indexOf()
        .prune(new Set(pools.map((pool) => targetOf(pool).spec.name)))
        .catch((error) =>
          warn(`could not remove qmd collections of dropped pools: ${formatError(error)}`),
        );
    },
    async indexPaths(paths) {
      if (!command) return;
      const wanted = paths.map((path) => resolve(rootDir, path));
      const specs = pools
        .map(targetOf)
        .filter((t) => isDirectory(t.spec.dir) && coversFolder(wanted, t.spec.dir))
        .map((t) => t.spec);
      await indexOf().prepare(specs).catch(fellBack);
    },
    async recall(input: MemoryQuery) {
      const query = parseInput(memoryQuerySchema, input, 'memory query');
      const terms = queryTerms(query.query);
      const targets = pools
        .filter((pool) => eligible(pool, query))
        .map(targetOf)
        .filter((t) => isDirectory(t.spec.dir));
      if (targets.length === 0 || terms.length === 0) return [];
      if (!command) {
        warn(
          `qmd is not installed; recall uses the file adapter. Install it with \`${QMD_INSTALL_COMMAND}\` (Node >= 22)`,
        );
        return fallback.recall(input);
      }
      try {
        return await recallThroughQmd(indexOf(), targets, query, terms);
      } catch (error) {
        fellBack(error);
        return fallback.recall(input);
      }
    },
    status: async () => adapterStatus(command ? indexOf().dir : undefined, pools, warnings),
    close: async () => index?.close(),
  };
}

/** The registration the engine adds to the adapter registry (`retrievalAdapter: "qmd"`). */
export const qmdRetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'qmd',
  capabilities: qmdRetrievalCapabilities,
  create: createQmdRetrievalAdapter,
};
