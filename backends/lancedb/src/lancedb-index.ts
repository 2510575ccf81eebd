import {
  assertSafeStoreFolder,
  embedderKey,
  type MemoryIndex,
  type MemoryIndexDescription,
  type MemoryIndexHit,
  type MemoryIndexQuery,
  type MemoryIndexRefreshOptions,
} from '@cairn/core';
import { addRefreshStats, candidateCount } from '@cairn/index-kit';
import { type RankedHit, searchChunks } from './hybrid-search';
import { isRemoteUri, type ResolvedLancedbOptions } from './lancedb-options';
import { LancedbStore } from './lancedb-store';
import { loadLancedb } from './load-lancedb';
import { queryClauses } from './query-filters';
import { type LancedbRefreshStats, type PoolTarget, refreshPool } from './refresh-pool';
import { sqlAnd, sqlString } from './sql';
import { placeOf } from './table-schema';

/** Operations on one database are serialized in this process; LanceDB arbitrates between processes. */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(uri: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(uri) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(uri, settled);
  void settled.then(() => {
    if (queues.get(uri) === settled) queues.delete(uri);
  });
  return run;
}

const emptyStats = (): LancedbRefreshStats => ({
  filesScanned: 0,
  filesRead: 0,
  filesChanged: 0,
  filesRemoved: 0,
  chunksWritten: 0,
  chunksEmbedded: 0,
  chunksDeleted: 0,
  ms: 0,
});

/** The agents check as SQL: does any stored row of the pool disagree with this definition? */
function staleMetaClause(target: PoolTarget): string {
  const agents = target.agents;
  const agentsDiffer = agents
    ? `agents IS NULL OR array_length(agents) <> ${agents.length} OR NOT array_has_all(agents, make_array(${agents.map(sqlString).join(', ')}))`
    : 'agents IS NOT NULL';
  return `pool = ${sqlString(target.id)} AND (tier <> ${sqlString(target.tier)} OR ${agentsDiffer})`;
}

/** A row found as the index contract reports it. */
function indexHit(hit: RankedHit): MemoryIndexHit {
  return {
    ...placeOf(hit),
    id: hit.chunk_id,
    pool: hit.pool,
    text: hit.text,
    score: hit.score,
    ...(hit.similarity !== undefined ? { similarity: hit.similarity } : {}),
    ...(hit.keywordScore !== undefined ? { keywordScore: hit.keywordScore } : {}),
  };
}

/**
 * One LanceDB database (a local folder or an object-storage URI): opened
 * lazily on first use, refreshed from the markdown before each query.
 */
export class LancedbIndex implements MemoryIndex<LancedbRefreshStats> {
  private store: Promise<LancedbStore> | undefined;

  constructor(
    readonly uri: string,
    /** This project's partition of the table (`repo`). */
    readonly project: string,
    readonly options: ResolvedLancedbOptions,
    private readonly warn: (message: string) => void,
  ) {}

  /** Loads the optional packages and opens (or creates, or rebuilds) the tables. */
  open(): Promise<LancedbStore> {
    if (this.store) return this.store;
    const pending = this.openStore();
    this.store = pending;
    // A failed open is retried next time rather than cached.
    pending.catch(() => {
      if (this.store === pending) this.store = undefined;
    });
    return pending;
  }

  private async openStore(): Promise<LancedbStore> {
    // LanceDB follows links: a folder under .cairn/ reached through one (or holding one) is refused.
    if (!isRemoteUri(this.uri)) assertSafeStoreFolder(this.uri);
    const modules = await loadLancedb(this.options.loadModules);
    const store = await LancedbStore.open({
      modules,
      uri: this.uri,
      storageOptions: this.options.storageOptions,
      tableName: this.options.tableName,
      project: this.project,
      namespace: this.options.namespace,
      redactText: isRemoteUri(this.uri),
      dimensions: this.options.embedder.dimensions,
      embedderKey: embedderKey(this.options.embedder),
      chunkKey: JSON.stringify(this.options.chunk),
      onEmbedderChange: this.options.onEmbedderChange,
      readConsistencyInterval: this.options.readConsistencyInterval,
      warn: this.warn,
    });
    await store.ensureIndexes(this.options.vectorIndexThreshold);
    return store;
  }

  /** Brings these pools up to date (incremental; `rebuild` re-reads and re-embeds every file). */
  async refresh(
    targets: PoolTarget[],
    options: MemoryIndexRefreshOptions = {},
  ): Promise<LancedbRefreshStats> {
    if (options.keepOnly) await this.reconcile(options.keepOnly);
    const full = options.rebuild === true;
    return serialized(this.uri, async () => {
      const store = await this.open();
      if (full) await store.reset();
      const total = emptyStats();
      for (const target of targets) {
        const stats = await refreshPool(store, target, {
          embedder: this.options.embedder,
          chunk: this.options.chunk,
          full,
        });
        addRefreshStats(total, stats);
      }
      const wrote = full || total.chunksWritten + total.chunksDeleted + total.filesRemoved > 0;
      if (wrote) await store.ensureIndexes(this.options.vectorIndexThreshold);
      return total;
    });
  }

  /**
   * Reconciles the table to the registered pools: pools no longer
   * registered are deleted, pools whose tier or agents changed are rewritten.
   */
  private reconcile(targets: PoolTarget[]): Promise<void> {
    return serialized(this.uri, async () => {
      const store = await this.open();
      const wanted = new Set(targets.map((t) => t.id));
      for (const pool of await store.pools()) if (!wanted.has(pool)) await store.dropPool(pool);
      for (const target of targets) {
        if ((await store.countRows(staleMetaClause(target))) > 0) {
          await store.setPoolMeta(target.id, target.tier, target.agents);
        }
      }
    });
  }

  async search(query: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    await this.refresh(query.pools);
    return serialized(this.uri, async () => {
      const hits = await searchChunks(await this.open(), {
        text: query.text,
        terms: query.terms,
        where: sqlAnd(queryClauses(query)),
        limit: candidateCount(query),
        embedder: this.options.embedder,
        rrfK: this.options.rrfK,
        minSimilarity: this.options.minSimilarity,
        mode: this.options.searchMode,
      });
      return hits.slice(0, candidateCount(query)).map(indexHit);
    });
  }

  /** Row count and index state, for status and diagnostics. */
  async describe(): Promise<MemoryIndexDescription> {
    const store = await this.open();
    const details = {
      uri: this.uri,
      table: this.options.tableName,
      repo: this.project,
      namespace: this.options.namespace,
      redactsText: isRemoteUri(this.uri),
      embedder: embedderKey(this.options.embedder),
      searchMode: this.options.searchMode,
      rows: await store.countRows(),
      fullTextIndex: store.indexes.fts,
      vectorIndex: store.indexes.vector,
      vectorIndexThreshold: this.options.vectorIndexThreshold,
    };
    return { summary: `LanceDB ${this.options.searchMode} search`, details };
  }

  async close(): Promise<void> {
    const pending = this.store;
    this.store = undefined;
    const store = await pending?.catch(() => undefined);
    await serialized(this.uri, async () => store?.close());
  }
}
