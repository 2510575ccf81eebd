import {
  CairnError,
  decodeRecordHeader,
  embedderKey,
  type MemoryIndex,
  type MemoryIndexDescription,
  type MemoryIndexHit,
  type MemoryIndexQuery,
  type MemoryIndexRefreshOptions,
  type PoolTarget,
} from '@cairn/core';
import {
  addRefreshStats,
  folderSource,
  hitMetadata,
  type IndexSource,
  isDirectory,
  passesIndexFilters,
  projectGlossaryIndex,
  type SearchIndexRefreshStats,
  scanMarkdown,
  type WarningSink,
  WORKSPACE_POOL_ID,
} from '@cairn/index-kit';
import { type HybridSearch, type SearchModeInfo, searchPool } from './hybrid-search';
import type { IndexDatabase } from './index-database';
import { type ChunkHit, chunkQueryOf } from './index-query';
import { planQuery, snippetWords } from './query-plan';
import {
  discardSearchIndex,
  hasWorkspace,
  type ProjectSearchIndex,
  sharedSearchIndex,
} from './search-index';
import { vectorStoreFor } from './vector-store';

const emptyStats = (): SearchIndexRefreshStats => ({
  filesScanned: 0,
  filesRead: 0,
  filesChanged: 0,
  filesRemoved: 0,
  chunksWritten: 0,
  ms: 0,
});

/** The pools a query's pool-level filters (poolId, tier) leave. */
function poolsOf(query: MemoryIndexQuery): PoolTarget[] {
  const { poolId, tier } = query.filters.oneOf ?? {};
  return query.pools.filter(
    (t) => (!poolId || poolId.includes(t.id)) && (!tier || tier.includes(t.tier)),
  );
}

function indexHit(target: PoolTarget, hit: ChunkHit, around: string[]): MemoryIndexHit {
  const { rowid: _rowid, chunkId: _chunkId, ...place } = hit;
  return {
    ...place,
    id: `${target.id}:${hit.path}:${hit.startLine}`,
    pool: target.id,
    highlight: around,
  };
}

/** A records source's file without its header line (kept blank, so line numbers hold), and the header. */
function recordText(text: string, records: boolean | undefined) {
  const end = text.indexOf('\n');
  const record = records ? decodeRecordHeader(end === -1 ? text : text.slice(0, end)) : undefined;
  return record ? { text: text.slice(end === -1 ? text.length : end), record } : { text };
}

/**
 * A pool's source as the SQLite index reads it: a folder's markdown, or a
 * source of its own (the project's documents), which must list synchronously.
 */
function indexSourceOf(target: PoolTarget): IndexSource {
  const { source } = target;
  if (source.key === target.base) return folderSource(target.base);
  return {
    pool: source.key,
    list: () => {
      const listed = source.list();
      if (Array.isArray(listed)) return listed;
      throw new CairnError('UNSUPPORTED', `pool "${target.id}" lists its files asynchronously`, {
        hint: 'the file index reads sources whose list() returns an array',
      });
    },
    read: (path) => source.read(path),
    ...(source.records ? { records: true } : {}),
    ...(source.chunk ? { chunk: source.chunk.bind(source) } : {}),
  };
}

/**
 * The file index as a MemoryIndex: SQLite FTS5 (bm25) over the workspace
 * in `.cairn/index/search.sqlite` and registered pool folders in
 * `pools.sqlite`, hybrid bm25 + vector search when an embedder is given,
 * and a plain keyword scan when SQLite cannot be loaded, the database
 * fails, or the workspace does not exist yet (then nothing is created).
 * With an embedder, every hit's metadata says how it was found. The open
 * databases are shared per project root (see sharedSearchIndex in search-index.ts).
 */
export class FileIndex implements MemoryIndex<SearchIndexRefreshStats> {
  constructor(
    private readonly rootDir: string,
    private readonly hybrid: HybridSearch | undefined,
    private readonly useIndex: boolean,
    private readonly warn: WarningSink,
  ) {}

  /** The shared index, or undefined (scan) without a workspace or when it cannot open. */
  private index(): ProjectSearchIndex | undefined {
    if (!this.useIndex || !hasWorkspace(this.rootDir)) return undefined;
    return sharedSearchIndex(this.rootDir, this.warn);
  }

  private databaseOf(index: ProjectSearchIndex, target: PoolTarget) {
    const workspace = target.source.key === WORKSPACE_POOL_ID;
    const database: IndexDatabase = workspace ? index.workspace : index.folders();
    const source: IndexSource = workspace ? index.workspaceSource : indexSourceOf(target);
    return { database, source };
  }

  async refresh(
    targets: PoolTarget[],
    options: MemoryIndexRefreshOptions = {},
  ): Promise<SearchIndexRefreshStats> {
    const index = this.index();
    const total = emptyStats();
    if (!index) return total;
    if (options.keepOnly) this.prune(index, options.keepOnly);
    for (const target of targets.filter((t) => isDirectory(t.base))) {
      const { database, source } = this.databaseOf(index, target);
      addRefreshStats(total, await database.refreshPool(source, options.rebuild === true));
      if (options.rebuild && this.hybrid) {
        await vectorStoreFor(database, this.hybrid.embedder).sync(source.pool);
      }
    }
    return total;
  }

  /** Forgets indexed pool folders no longer registered; stale pools only cost disk space. */
  private prune(index: ProjectSearchIndex, keep: PoolTarget[]): void {
    try {
      const folders = keep
        .filter((t) => t.source.key !== WORKSPACE_POOL_ID)
        .map((t) => t.source.key);
      index.pruneFolders(folders);
    } catch (error) {
      this.warn(`could not prune the pool index: ${String(error)}`);
    }
  }

  async search(query: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    const pools = poolsOf(query);
    const index = this.index();
    if (index) {
      try {
        const found = await Promise.all(pools.map((t) => this.searchIndexed(index, t, query)));
        return found.flat();
      } catch (error) {
        if (CairnError.isInstance(error)) throw error;
        discardSearchIndex(this.rootDir, error, this.warn);
      }
    }
    const found = (await Promise.all(pools.map((t) => this.scan(t, query)))).flat();
    return found.sort((a, b) => b.score - a.score);
  }

  /** One pool through SQLite: refreshed first, filters as SQL, the rest checked inside the ranking. */
  private async searchIndexed(
    index: ProjectSearchIndex,
    target: PoolTarget,
    query: MemoryIndexQuery,
  ): Promise<MemoryIndexHit[]> {
    const project = projectGlossaryIndex(this.rootDir, this.warn);
    const plan = await planQuery(query.text, project ? { project } : {});
    if (plan.terms.length === 0 || !isDirectory(target.base)) return [];
    const { database, source } = this.databaseOf(index, target);
    const around = snippetWords(plan);
    const { query: filters, rest } = chunkQueryOf(query.filters);
    const postFilter = rest
      ? (hit: ChunkHit) =>
          passesIndexFilters(hitMetadata(indexHit(target, hit, around), target), rest)
      : undefined;
    const chunkQuery = { ...filters, pool: source.pool, plan, limit: query.limit };
    const { hits, info } = await searchPool(
      database,
      source,
      { query: chunkQuery, text: query.text, ...(postFilter ? { postFilter } : {}) },
      this.hybrid,
    );
    return hits.map((hit) => {
      const found = indexHit(target, hit, around);
      return this.hybrid ? { ...found, metadata: { ...info } } : found;
    });
  }

  /** The plain scan of one pool: RAW paragraphs, no unit metadata. */
  private async scan(target: PoolTarget, query: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    if (!isDirectory(target.base)) return [];
    const hits: MemoryIndexHit[] = [];
    for (const file of await target.source.list()) {
      const content = (await target.source.read(file.path).catch(() => undefined)) ?? '';
      const { text, record } = recordText(content.toString(), target.source.records);
      for (const hit of scanMarkdown(text, query.terms, Number.MAX_SAFE_INTEGER)) {
        const found: MemoryIndexHit = {
          id: `${target.id}:${file.path}:${hit.startLine}`,
          pool: target.id,
          path: file.path,
          startLine: hit.startLine,
          endLine: hit.endLine,
          kind: 'RAW',
          text: hit.text,
          score: hit.score,
          ...(record ? { record, createdAt: record.createdAt } : {}),
          ...(this.hybrid ? { metadata: { ...this.scanInfo(this.hybrid) } } : {}),
        };
        if (passesIndexFilters(hitMetadata(found, target), query.filters)) hits.push(found);
      }
    }
    return hits;
  }

  /** No index, no vectors: said on every hit. */
  private scanInfo(hybrid: HybridSearch): SearchModeInfo {
    return {
      mode: 'keyword',
      embedder: embedderKey(hybrid.embedder),
      embedderError: 'the search index is unavailable; answered by a plain keyword scan',
    };
  }

  async describe(): Promise<MemoryIndexDescription> {
    const indexed = this.index() !== undefined;
    const summary = indexed ? (this.hybrid ? 'hybrid index' : 'full-text index') : 'keyword scan';
    return { summary, details: {} };
  }

  /** The databases are shared per project root and closed with closeSearchIndexes(). */
  async close(): Promise<void> {}
}
