import { join } from 'node:path';
import {
  type MemoryIndex,
  type MemoryIndexDescription,
  type MemoryIndexHit,
  type MemoryIndexQuery,
  type MemoryIndexRefreshOptions,
  type PoolTarget,
  rawMemoryId,
} from '@cairn/core';
import type { ResolvedMem0Options } from './mem0-options';
import { hitFields, Mem0Project } from './mem0-project';
import type { Mem0Condition, Mem0Hit } from './mem0-store';
import type { Mem0SyncStats } from './mirror';
import { type MirrorSource, mirrorSourceOf, WORKSPACE_KEY } from './sources';

/** Metadata Mem0 stores on each entry and can filter on itself: recall filter key → metadata key. */
const STORED_KEYS: Record<string, string> = {
  path: 'path',
  kind: 'kind',
  category: 'category',
  review: 'review',
  memoryId: 'memoryId',
  // Seed 004 §6.2 keys, under the names recall metadata reports them (Mem0 metadata is flat).
  record_kind: 'record_kind',
  trust_class: 'trust_class',
  'run_ref.kind': 'run_ref_kind',
  'run_ref.id': 'run_ref_id',
};

/** What Mem0 applies itself: stored metadata, deprecation, and pools and tiers (by narrowing the pools). */
export const MEM0_PUSHED_FILTERS = [
  ...Object.keys(STORED_KEYS),
  'poolId',
  'tier',
  'deprecated',
] as const;

/** One source per key: pools that share a folder are mirrored once. */
function sourcesOf(targets: PoolTarget[]): MirrorSource[] {
  const byKey = new Map(targets.map((t) => [t.source.key, t.source]));
  return [...byKey.values()].map(mirrorSourceOf);
}

/** Mem0 keeps the source key as `pool`; a hit becomes one hit per pool reading that source. */
function indexHit(hit: Mem0Hit, target: PoolTarget): MemoryIndexHit {
  const f = hitFields(hit);
  const id = f.memoryId
    ? f.memoryId
    : target.source.key === WORKSPACE_KEY
      ? rawMemoryId(f)
      : `${target.id}:${f.path}:${f.startLine}`;
  return {
    ...f,
    id,
    pool: target.id,
    text: hit.text,
    score: hit.score,
    metadata: { mem0Id: hit.id },
  };
}

/** The filters as Mem0 conditions, and the pools left once pool and tier filters narrowed them. */
function conditionsOf(query: MemoryIndexQuery) {
  const oneOf = query.filters.oneOf ?? {};
  const pools = query.pools.filter(
    (t) =>
      (!oneOf.poolId || oneOf.poolId.includes(t.id)) &&
      (!oneOf.tier || oneOf.tier.includes(t.tier)),
  );
  const where: Record<string, Mem0Condition> = {};
  for (const [key, stored] of Object.entries(STORED_KEYS)) {
    if (oneOf[key]) where[stored] = { in: oneOf[key] };
  }
  if (query.filters.excludeDeprecated && !where.review) where.review = { ne: 'deprecated' };
  return { pools, where };
}

/**
 * One project's Mem0 as an index: the pools' markdown mirrored into Mem0
 * (units and notes with their ids, review state and place in metadata)
 * and recalled by vector similarity, stored metadata pushed down as Mem0
 * filters. `changed` mirrors the workspace after a write when the options
 * ask for it (`syncOnWrite`).
 */
export class Mem0Index implements MemoryIndex<Mem0SyncStats> {
  readonly project: Mem0Project;

  constructor(
    rootDir: string,
    private readonly options: ResolvedMem0Options,
    dataDir?: string,
  ) {
    // The host's index folder, unless the options chose one.
    const folder = !options.dataDir && dataDir ? { dataDir: join(dataDir, 'mem0') } : {};
    this.project = new Mem0Project(rootDir, { ...options, ...folder });
  }

  /** Mirrors the pools; with `keepOnly`, every listed pool, and entries of other pools are removed. */
  refresh(targets: PoolTarget[], options: MemoryIndexRefreshOptions = {}): Promise<Mem0SyncStats> {
    const prune = options.keepOnly !== undefined;
    return this.project.sync({
      sources: sourcesOf(options.keepOnly ?? targets),
      prune,
      rebuild: options.rebuild === true,
    });
  }

  async changed(targets: PoolTarget[]): Promise<void> {
    if (this.options.syncOnWrite) await this.refresh(targets);
  }

  async search(query: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    const { pools, where } = conditionsOf(query);
    if (pools.length === 0) return [];
    await this.refresh(pools);
    const byKey = new Map<string, PoolTarget[]>();
    for (const t of pools) byKey.set(t.source.key, [...(byKey.get(t.source.key) ?? []), t]);
    const hits = await this.project.search({
      query: query.text,
      topK: query.postFiltered ? Math.max(query.limit * 4, 50) : query.limit,
      threshold: this.options.threshold,
      where: { ...where, pool: { in: [...byKey.keys()] } },
    });
    return hits.flatMap((hit) =>
      (byKey.get(String(hit.metadata.pool)) ?? []).map((t) => indexHit(hit, t)),
    );
  }

  async describe(): Promise<MemoryIndexDescription> {
    const { mode, scope } = this.options;
    const details = { mode, scope, namespace: this.project.namespace };
    return { summary: `Mem0 ${mode}`, details };
  }

  close(): Promise<void> {
    return this.project.close();
  }
}
