import type { Embedder } from '@cairn/core';
import {
  embedInBatches,
  type PoolChanges,
  type PoolFileUpdate,
  type PoolSink,
  type PoolTarget,
  poolSyncSource,
  type StoredFileState,
  syncPool,
} from '@cairn/index-kit';
import { matchOf, type Partition, partitionConditions, type QdrantFilter } from './qdrant-filters';
import { type ChunkPoint, chunkPayload, chunkPoint } from './qdrant-payload';
import type { QdrantStore } from './qdrant-store';

export type { PoolTarget };

/** What one refresh did: the same figures as the file index, plus points. */
export interface QdrantRefreshStats {
  filesScanned: number;
  filesRead: number;
  filesChanged: number;
  filesRemoved: number;
  pointsUpserted: number;
  /** Files whose stale points were deleted (changed, moved or removed). */
  filesPurged: number;
}

/** The partition a refresher writes: who the points belong to and how they were embedded. */
export interface RefreshPartition {
  namespace: string;
  repo: string;
  securityScope: string;
  /** `embedderKey` of the embedder. */
  embedder: string;
}

const STATE_FIELDS = ['path', 'file_size', 'file_mtime_ms', 'file_hash', 'pool_source', 'embedder'];

export function poolFilter(partition: Partition, pool: string, paths?: string[]): QdrantFilter {
  const must = [...partitionConditions(partition), matchOf('pool', pool)];
  if (paths) must.push(matchOf('path', paths));
  return { must };
}

/**
 * Incremental refresh of the pools of one project (index-kit's `syncPool`
 * over the collection as its sink). The collection is the only state
 * (every chunk point carries its file's size, mtime and hash), so any
 * machine can refresh; what it holds is cached per pool for this process.
 * A changed file's chunks are upserted under stable ids and its stale
 * points deleted.
 */
export class PoolRefresher {
  private readonly states = new Map<string, Map<string, StoredFileState>>();

  constructor(
    private readonly store: QdrantStore,
    private readonly partition: RefreshPartition,
    private readonly embedder: Embedder,
    private readonly chunk: { maxTokens: number; overlapTokens: number },
  ) {}

  private filter(pool: string, paths?: string[]): QdrantFilter {
    const { namespace, repo } = this.partition;
    return poolFilter({ namespace, repo }, pool, paths);
  }

  /** The states the collection holds for a pool; a pool of another folder or embedder is deleted. */
  private async statesOf(target: PoolTarget): Promise<Map<string, StoredFileState>> {
    const cached = this.states.get(target.id);
    if (cached) return cached;
    const points = await this.store.scrollAll(this.filter(target.id), STATE_FIELDS);
    const states = new Map<string, StoredFileState>();
    let foreign = false;
    for (const { payload: p } of points) {
      if (!p?.path || states.has(p.path)) continue;
      states.set(p.path, {
        size: Number(p.file_size),
        mtimeMs: Number(p.file_mtime_ms),
        hash: String(p.file_hash),
      });
      foreign ||= p.pool_source !== target.source.key || p.embedder !== this.partition.embedder;
    }
    if (!foreign) return states;
    // The pool moved to another folder, or another embedder made its vectors.
    await this.store.deleteWhere(this.filter(target.id));
    return new Map();
  }

  /** Forgets the cached states (another process may have changed the collection). */
  reset(poolId?: string): void {
    if (poolId) this.states.delete(poolId);
    else this.states.clear();
  }

  /** Deletes every point of this project (all pools), for a full rebuild. */
  async dropAll(): Promise<void> {
    const { namespace, repo } = this.partition;
    await this.store.deleteWhere({ must: partitionConditions({ namespace, repo }) });
    this.states.clear();
  }

  async refresh(target: PoolTarget): Promise<QdrantRefreshStats> {
    const known = await this.statesOf(target);
    // Forgotten until the sync is written: a failed one reads the collection again.
    this.states.delete(target.id);
    // Qdrant cuts every file with the index's chunker (the stored point ids depend on it).
    const { chunk: _ownChunker, ...source } = poolSyncSource(target);
    const sink: PoolSink<{ chunksWritten: number; filesPurged: number }> = {
      fileStates: () => known,
      write: (changes) => this.write(target, changes, known),
    };
    const { stats, states } = await syncPool(source, sink, { chunk: this.chunk });
    this.states.set(target.id, states);
    return {
      filesScanned: stats.filesScanned,
      filesRead: stats.filesRead,
      filesChanged: stats.filesChanged,
      filesRemoved: stats.filesRemoved,
      pointsUpserted: stats.chunksWritten,
      filesPurged: stats.filesPurged,
    };
  }

  /** Restats moved files, replaces changed ones, deletes the points of removed ones. */
  private async write(
    target: PoolTarget,
    changes: PoolChanges,
    known: ReadonlyMap<string, StoredFileState>,
  ) {
    let chunksWritten = 0;
    let filesPurged = changes.removed.length;
    for (const file of changes.restat) {
      const stat = { file_size: file.size, file_mtime_ms: file.mtimeMs };
      await this.store.setPayload(stat, this.filter(target.id, [file.path]));
    }
    for (const file of changes.updates) {
      chunksWritten += await this.replaceFile(target, file);
      if (known.has(file.path)) filesPurged += 1;
    }
    if (changes.removed.length > 0) {
      await this.store.deleteWhere(this.filter(target.id, changes.removed));
    }
    return { chunksWritten, filesPurged };
  }

  /** Upserts the file's chunks, then deletes its points that are not among them. */
  private async replaceFile(target: PoolTarget, file: PoolFileUpdate): Promise<number> {
    const context = {
      ...this.partition,
      pool: target.id,
      tier: target.tier,
      poolSource: target.source.key,
      file: { size: file.size, mtimeMs: file.mtimeMs, hash: file.hash },
    };
    const payloads = file.chunks.map((chunk) => chunkPayload(context, chunk));
    const vectors = await embedInBatches(
      this.embedder,
      payloads.map((p) => p.text),
    );
    const points: ChunkPoint[] = payloads.map((p, i) =>
      chunkPoint(p, vectors[i]!, this.store.sparse),
    );
    await this.store.upsert(points);
    const stale = this.filter(target.id, [file.path]);
    await this.store.deleteWhere(
      points.length > 0 ? { ...stale, must_not: [{ has_id: points.map((p) => p.id) }] } : stale,
    );
    return points.length;
  }
}
