import { CairnError, isEmbedder, type MemoryIndexCommonOptions } from '@cairn/core';
import type { HybridRanking } from './hybrid-rank';
import { type HybridSearch, hybridSearchOf } from './hybrid-search';

/** The file index's options once parsed. */
export interface FileIndexOptions extends MemoryIndexCommonOptions {
  /** Set when an embedder turns hybrid search on. */
  hybrid: HybridSearch | undefined;
  /** False: always the plain scan. */
  useIndex: boolean;
}

/**
 * The options of the file backend and the file adapter: `embedder` (an
 * Embedder object) turns hybrid search on, `ranking` (or the adapter's
 * `search`) tunes it, `now` pins its clock; `searchIndex: false` scans.
 */
export function parseFileOptions(input: unknown): FileIndexOptions {
  const raw = (input ?? {}) as Record<string, unknown>;
  const { embedder, ranking, search, now } = raw;
  if (embedder !== undefined && !isEmbedder(embedder)) {
    throw new CairnError(
      'INVALID_CONFIG',
      'The file adapter option "embedder" is not an Embedder',
      {
        hint: 'pass an object with id, model, dimensions and embed(texts), e.g. createHashEmbedder() from @cairn/core',
        details: { key: 'embedder' },
      },
    );
  }
  const tuning = (ranking ?? search) as Partial<HybridRanking> | undefined;
  const hybrid = embedder
    ? hybridSearchOf({
        embedder,
        ...(tuning ? { ranking: tuning } : {}),
        ...(typeof now === 'function' ? { now: now as () => number } : {}),
      })
    : undefined;
  return {
    hybrid,
    useIndex: raw.searchIndex !== false,
    ...(typeof raw.getMaxLines === 'number' ? { getMaxLines: raw.getMaxLines } : {}),
    ...(typeof raw.onWarning === 'function'
      ? { onWarning: raw.onWarning as (message: string) => void }
      : {}),
  };
}
