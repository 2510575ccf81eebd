/**
 * A test engine (not part of the package API): it finds every unit of the
 * workspace for the word `zzprobe`, which appears in no unit, so an answer
 * to that word can only have come through it. Its hits say `engine: probe`.
 */
import type {
  MemoryChunk,
  MemoryIndex,
  MemoryIndexCommonOptions,
  MemoryIndexHit,
  MemoryIndexRegistration,
} from '@cairn/core';
import { chunkFile } from '@cairn/index-kit';

export const PROBE_WORD = 'zzprobe';

export interface ProbeRegistration extends MemoryIndexRegistration<MemoryIndexCommonOptions> {
  /** How many indexes were created, by project root. */
  created: string[];
}

function probeIndex(): MemoryIndex {
  const chunks = new Map<string, MemoryChunk[]>();
  const index: MemoryIndex = {
    async refresh(targets) {
      let count = 0;
      for (const target of targets) {
        const found: MemoryChunk[] = [];
        for (const file of await target.source.list()) {
          const bytes = await target.source.read(file.path);
          if (bytes) found.push(...chunkFile(bytes.toString('utf8'), file.path, {}));
        }
        chunks.set(target.id, found);
        count += found.length;
      }
      return { chunks: count };
    },
    async search(query) {
      await index.refresh(query.pools);
      if (!query.text.includes(PROBE_WORD)) return [];
      const hits: MemoryIndexHit[] = [];
      for (const target of query.pools) {
        for (const chunk of chunks.get(target.id) ?? []) {
          if (chunk.kind !== 'UNIT') continue;
          hits.push({
            ...chunk,
            id: `probe:${chunk.id}`,
            pool: target.id,
            score: 1,
            metadata: { engine: 'probe' },
          });
        }
      }
      return hits.slice(0, query.limit);
    },
    async describe() {
      return { summary: 'Probe search', details: {} };
    },
    async close() {},
  };
  return index;
}

/** A fresh registration of the probe engine under `type`. */
export function probeRegistration(type = 'probe'): ProbeRegistration {
  const created: string[] = [];
  return {
    type,
    name: 'Probe (test engine)',
    engine: 'Probe',
    capabilities: { semantic: false, keyword: true, filters: [] },
    parseOptions: (input) => (input ?? {}) as MemoryIndexCommonOptions,
    create(context) {
      created.push(context.rootDir);
      return probeIndex();
    },
    created,
  };
}
