import type { Embedder } from '@cairn/core';
import { chunkFile, embedInBatches, type PoolTarget } from '@cairn/index-kit';
import { matchOf, type Partition, partitionConditions, type QdrantFilter } from './qdrant-filters';
import { type ChunkPoint, chunkPayload, chunkPoint, sha256 } from './qdrant-payload';
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

/** What the collection holds for one file of a pool: its stat and hash when indexed. */
interface FileState {
  size: number;
  mtimeMs: number;
  hash: string;
  source: string;
  embedder: string;
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
 * Incremental refresh of the pools of one project. The collection is the
 * only state (every chunk point carries its file's size, mtime and hash),
 * so any machine can refresh; what it read is cached per pool for this
 * process. An unchanged stat is skipped unread, a new stat with the same
 * hash only updates the stat, anything else is re-chunked, upserted under
 * stable ids, and its stale points deleted.
 */
export class PoolRefresher {
  private readonly states = new Map<string, Map<string, FileState>>();

  constructor(
    private readonly store: QdrantStore,
    private readonly partition: RefreshPartition,
    private readonly embedder: Embedder,
    private readonly chunk: { maxTokens: number; overlapTokens: number },
  ) {}

  private async statesOf(target: PoolTarget): Promise<Map<string, FileState>> {
    const cached = this.states.get(target.id);
    if (cached) return cached;
    const { namespace, repo } = this.partition;
    const points = await this.store.scrollAll(
      poolFilter({ namespace, repo }, target.id),
      STATE_FIELDS,
    );
    const states = new Map<string, FileState>();
    for (const { payload: p } of points) {
      if (!p?.path || states.has(p.path)) continue;
      states.set(p.path, {
        size: Number(p.file_size),
        mtimeMs: Number(p.file_mtime_ms),
        hash: String(p.file_hash),
        source: String(p.pool_source),
        embedder: String(p.embedder),
      });
    }
    this.states.set(target.id, states);
    return states;
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
    const { namespace, repo } = this.partition;
    let known = await this.statesOf(target);
    const foreign = [...known.values()].some(
      (s) => s.source !== target.source.key || s.embedder !== this.partition.embedder,
    );
    if (foreign) {
      // The pool moved to another folder, or another embedder made its vectors.
      await this.store.deleteWhere(poolFilter({ namespace, repo }, target.id));
      known = new Map();
      this.states.set(target.id, known);
    }
    const listed = await target.source.list();
    const present = new Set(listed.map((f) => f.path));
    const removed = [...known.keys()].filter((path) => !present.has(path));
    const stats: QdrantRefreshStats = {
      filesScanned: listed.length,
      filesRead: 0,
      filesChanged: 0,
      filesRemoved: removed.length,
      pointsUpserted: 0,
      filesPurged: 0,
    };
    for (const entry of listed) {
      const before = known.get(entry.path);
      if (before && before.size === entry.bytes && before.mtimeMs === entry.mtimeMs) continue;
      const bytes = await target.source.read(entry.path);
      if (!bytes) {
        if (before) removed.push(entry.path);
        continue;
      }
      stats.filesRead += 1;
      const state: FileState = {
        size: entry.bytes,
        mtimeMs: entry.mtimeMs,
        hash: sha256(bytes),
        source: target.source.key,
        embedder: this.partition.embedder,
      };
      if (before?.hash === state.hash) {
        const stat = { file_size: state.size, file_mtime_ms: state.mtimeMs };
        await this.store.setPayload(stat, poolFilter({ namespace, repo }, target.id, [entry.path]));
      } else {
        stats.filesChanged += 1;
        stats.pointsUpserted += await this.replaceFile(target, entry.path, bytes, state);
        stats.filesPurged += before ? 1 : 0;
      }
      known.set(entry.path, state);
    }
    if (removed.length > 0) {
      await this.store.deleteWhere(poolFilter({ namespace, repo }, target.id, removed));
      for (const path of removed) known.delete(path);
      stats.filesPurged += removed.length;
    }
    return stats;
  }

  /** Upserts the file's chunks, then deletes its points that are not among them. */
  private async replaceFile(
    target: PoolTarget,
    path: string,
    bytes: Buffer,
    state: FileState,
  ): Promise<number> {
    const chunks = chunkFile(bytes.toString('utf8'), path, {
      ...this.chunk,
      records: target.source.records,
    });
    const context = {
      ...this.partition,
      pool: target.id,
      tier: target.tier,
      poolSource: target.source.key,
      file: { size: state.size, mtimeMs: state.mtimeMs, hash: state.hash },
    };
    const payloads = chunks.map((chunk) => chunkPayload(context, chunk));
    const vectors = await embedInBatches(
      this.embedder,
      payloads.map((p) => p.text),
    );
    const points: ChunkPoint[] = payloads.map((p, i) =>
      chunkPoint(p, vectors[i]!, this.store.sparse),
    );
    await this.store.upsert(points);
    const { namespace, repo } = this.partition;
    const stale = poolFilter({ namespace, repo }, target.id, [path]);
    await this.store.deleteWhere(
      points.length > 0 ? { ...stale, must_not: [{ has_id: points.map((p) => p.id) }] } : stale,
    );
    return points.length;
  }
}
