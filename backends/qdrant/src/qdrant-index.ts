import {
  compareCodeUnits,
  embedderKey,
  type MemoryIndex,
  type MemoryIndexDescription,
  type MemoryIndexHit,
  type MemoryIndexQuery,
  type MemoryIndexRefreshOptions,
  type MemoryRecordMeta,
  redactSecrets,
} from '@cairn/core';
import { addRefreshStats, candidateCount } from '@cairn/index-kit';
import { indexFilter, matchOf, partitionConditions, type QdrantFilter } from './qdrant-filters';
import type { ResolvedQdrantOptions } from './qdrant-options';
import { type ChunkPayload, DENSE_VECTOR, SPARSE_VECTOR, sparseVectorOf } from './qdrant-payload';
import { PoolRefresher, type PoolTarget, type QdrantRefreshStats } from './qdrant-refresh';
import { QdrantStore } from './qdrant-store';

/** One hit of a recall or search: the point's payload and its fused score. */
export interface ChunkHit {
  pointId: string;
  score: number;
  payload: ChunkPayload;
}

export interface ChunkSearch {
  text: string;
  filter: QdrantFilter;
  limit: number;
}

/** Each arm fetches this many candidates per wanted result before fusion. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 40;

function emptyStats(): QdrantRefreshStats {
  return {
    filesScanned: 0,
    filesRead: 0,
    filesChanged: 0,
    filesRemoved: 0,
    pointsUpserted: 0,
    filesPurged: 0,
  };
}

/** A task-history record's metadata back from its payload. */
function recordOf(p: ChunkPayload): MemoryRecordMeta | undefined {
  if (p.record_kind !== 'run_digest' && p.record_kind !== 'fix_pattern') return undefined;
  return {
    kind: p.record_kind,
    trustClass: p.trust_class,
    namespace: p.namespace_id,
    repo: p.repo,
    createdAt: p.created_at ?? '',
    ...(p.run_ref ? { runRef: { kind: p.run_ref.kind, id: p.run_ref.id } } : {}),
  };
}

/** A point found, as the index contract reports it; Qdrant's own fields go to metadata. */
function indexHit(hit: ChunkHit): MemoryIndexHit {
  const p = hit.payload;
  const record = recordOf(p);
  return {
    id: p.chunk_id,
    pool: p.pool,
    path: p.path,
    startLine: p.start_line,
    endLine: p.end_line,
    kind: p.kind,
    memoryId: p.memory_id,
    category: p.category,
    review: p.review_state,
    createdAt: p.created_at,
    ...(record ? { record } : {}),
    text: p.text,
    score: hit.score,
    metadata: {
      pointId: hit.pointId,
      record_kind: p.record_kind,
      trust_class: p.trust_class,
      namespace_id: p.namespace_id,
      repo: p.repo,
    },
  };
}

/**
 * The Qdrant side of one project: its collection (shared by every repo of
 * the namespace), its partition (namespace + repo), incremental refresh
 * and hybrid search (dense cosine + sparse keywords, fused by Qdrant's RRF).
 */
export class QdrantIndex implements MemoryIndex<QdrantRefreshStats> {
  readonly store: QdrantStore;
  private readonly refresher: PoolRefresher;
  private readonly key: string;

  constructor(
    readonly options: ResolvedQdrantOptions,
    readonly repo: string,
    warn: (message: string) => void,
  ) {
    this.store = new QdrantStore(options, warn);
    this.key = embedderKey(options.embedder);
    this.refresher = new PoolRefresher(
      this.store,
      {
        namespace: options.namespace,
        repo,
        securityScope: options.securityScope,
        embedder: this.key,
      },
      options.embedder,
      options.chunk,
    );
  }

  /** The partition conditions every query of this project starts from. */
  get partition() {
    return { namespace: this.options.namespace, repo: this.repo, embedder: this.key };
  }

  async refresh(
    targets: PoolTarget[],
    options: MemoryIndexRefreshOptions = {},
  ): Promise<QdrantRefreshStats> {
    await this.store.ensure();
    if (options.keepOnly) {
      await this.keepOnlyPools(options.keepOnly.map((target) => target.id));
      this.forget();
    }
    if (options.rebuild) await this.refresher.dropAll();
    const total = emptyStats();
    for (const target of targets) {
      addRefreshStats(total, await this.refresher.refresh(target));
    }
    return total;
  }

  /** Deletes this project's points of any pool not listed (pools dropped from the registration). */
  private async keepOnlyPools(poolIds: string[]): Promise<void> {
    await this.store.ensure();
    await this.store.deleteWhere({
      must: partitionConditions({ namespace: this.options.namespace, repo: this.repo }),
      must_not: [matchOf('pool', poolIds)],
    });
  }

  /** Forgets cached file states, so the next refresh reads them from the collection. */
  forget(poolId?: string): void {
    this.refresher.reset(poolId);
  }

  async search(query: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    await this.refresh(query.pools);
    const filter = indexFilter(this.partition, query);
    const limit = candidateCount(query);
    // The query's vectors go to the server: nothing in them comes from a secret.
    const text = redactSecrets(query.text).text;
    const hits = await this.searchPoints({ text, filter, limit });
    return hits.map(indexHit);
  }

  private async searchPoints(search: ChunkSearch): Promise<ChunkHit[]> {
    if (search.text.trim() === '') return [];
    await this.store.ensure();
    const [dense] = await this.options.embedder.embed([search.text]);
    const keywords = this.store.sparse ? sparseVectorOf(search.text, true) : undefined;
    const fetch = Math.max(search.limit * CANDIDATES_PER_RESULT, MIN_CANDIDATES);
    const denseArm = {
      query: dense,
      using: DENSE_VECTOR,
      filter: search.filter,
      score_threshold: this.options.minSimilarity,
    };
    const body =
      keywords && keywords.indices.length > 0
        ? {
            prefetch: [
              { ...denseArm, limit: fetch },
              { query: keywords, using: SPARSE_VECTOR, filter: search.filter, limit: fetch },
            ],
            query: { fusion: 'rrf' },
            filter: search.filter,
          }
        : denseArm;
    const points = await this.store.query({ ...body, limit: search.limit, with_payload: true });
    return points
      .filter((p) => p.payload?.chunk_id !== undefined)
      .map((p) => ({
        pointId: String(p.id),
        score: p.score ?? 0,
        payload: p.payload as ChunkPayload,
      }))
      .sort(
        (a, b) => b.score - a.score || compareCodeUnits(a.payload.chunk_id, b.payload.chunk_id),
      );
  }

  /** Point count and configuration, for status(). */
  async describe(): Promise<MemoryIndexDescription> {
    await this.store.ensure();
    const { namespace } = this.options;
    const points = await this.store.count({
      must: partitionConditions({ namespace, repo: this.repo }),
    });
    const details = {
      url: this.options.url,
      collection: this.store.collection,
      namespace,
      repo: this.repo,
      embedder: this.key,
      sparse: this.store.sparse,
      points,
    };
    const mode = this.store.sparse ? 'hybrid' : 'dense';
    return { summary: `Qdrant ${mode} recall`, details };
  }

  /** Nothing to release (REST); cached file states are dropped. */
  async close(): Promise<void> {
    this.forget();
  }
}
