import {
  CairnError,
  type MemoryChunk,
  type MemoryIndex,
  type MemoryIndexCommonOptions,
  type MemoryIndexFilters,
  type MemoryIndexHit,
  type MemoryIndexRegistration,
  type PoolTarget,
} from '@cairn/core';
import { passesIndexFilters } from './index-filters';
import { candidateCount, hitMetadata } from './index-hits';
import { chunkFile } from './sync-pool';

/** Test index (not part of the package API): chunks in memory, scored by matching terms. */
export interface KeywordIndexOptions extends MemoryIndexCommonOptions {
  /** Makes every refresh fail, as a missing engine would. */
  broken?: boolean;
}

interface Stored {
  target: PoolTarget;
  chunks: MemoryChunk[];
}

export interface KeywordIndexProbe {
  /** Pools the index holds now, by id. */
  pools: () => string[];
  /** Filters the last search received. */
  lastFilters: () => MemoryIndexFilters | undefined;
  /** Contexts the index was created with. */
  created: { rootDir: string; dataDir?: string }[];
  /** Pools `changed` was told about, in order. */
  changed: string[];
}

function keywordIndex(broken: boolean, probe: KeywordIndexProbe, pools: Map<string, Stored>) {
  let last: MemoryIndexFilters | undefined;
  probe.lastFilters = () => last;
  const index: MemoryIndex<{ chunks: number }> = {
    async refresh(targets, options = {}) {
      if (broken) throw new CairnError('BACKEND_UNAVAILABLE', 'the keyword engine is missing');
      if (options.keepOnly) {
        const keep = new Set(options.keepOnly.map((t) => t.id));
        for (const id of pools.keys()) if (!keep.has(id)) pools.delete(id);
      }
      let count = 0;
      for (const target of targets) {
        const chunks: MemoryChunk[] = [];
        for (const file of await target.source.list()) {
          const bytes = await target.source.read(file.path);
          if (bytes)
            chunks.push(
              ...chunkFile(bytes.toString('utf8'), file.path, { records: target.source.records }),
            );
        }
        pools.set(target.id, { target, chunks });
        count += chunks.length;
      }
      return { chunks: count };
    },
    async search(query) {
      await index.refresh(query.pools);
      last = query.filters;
      const hits: MemoryIndexHit[] = [];
      for (const target of query.pools) {
        for (const chunk of pools.get(target.id)?.chunks ?? []) {
          const text = chunk.text.toLowerCase();
          const score = query.terms.filter((term) => text.includes(term)).length;
          const hit = { ...chunk, id: `${target.id}:${chunk.id}`, pool: target.id, score };
          if (score > 0 && passesIndexFilters(hitMetadata(hit, target), query.filters)) {
            hits.push(hit);
          }
        }
      }
      return hits.sort((a, b) => b.score - a.score).slice(0, candidateCount(query));
    },
    async describe() {
      if (broken) throw new CairnError('BACKEND_UNAVAILABLE', 'the keyword engine is missing');
      const chunks = [...pools.values()].reduce((n, p) => n + p.chunks.length, 0);
      return { summary: 'Keyword search', details: { chunks } };
    },
    async changed(targets) {
      if (broken) throw new CairnError('BACKEND_UNAVAILABLE', 'the keyword engine is missing');
      probe.changed.push(...targets.map((t) => t.id));
    },
    async close() {},
  };
  return index;
}

/** A registration over the in-memory keyword index; it pushes down kind and pool ids only. */
export function keywordIndexRegistration(): MemoryIndexRegistration<
  KeywordIndexOptions,
  { chunks: number }
> & { probe: KeywordIndexProbe } {
  const probe: KeywordIndexProbe = {
    pools: () => [],
    lastFilters: () => undefined,
    created: [],
    changed: [],
  };
  const pools = new Map<string, Stored>();
  probe.pools = () => [...pools.keys()].sort();
  return {
    type: 'keyword',
    name: 'Keyword (test index)',
    engine: 'Keyword',
    capabilities: { semantic: false, keyword: true, filters: ['kind', 'poolId'] },
    parseOptions(input) {
      const options = (input ?? {}) as KeywordIndexOptions;
      if (typeof options !== 'object' || Object.keys(options).some((k) => k === 'nope')) {
        throw new CairnError('INVALID_INPUT', 'unknown option "nope"');
      }
      return options;
    },
    create(context) {
      probe.created.push({
        rootDir: context.rootDir,
        ...(context.dataDir ? { dataDir: context.dataDir } : {}),
      });
      return keywordIndex(context.options.broken === true, probe, pools);
    },
    probe,
  };
}
