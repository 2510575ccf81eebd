import type { MemorySearchFilters, MemorySearchResult, MemoryTier, ReviewState } from '@cairn/core';
import type { PackInput } from './compose-pack';

/** One memory search through the project's recall, as `Cairn.search` or `MemorySearch.search` does it. */
export type SearchMemoryFn = (request: {
  query: string;
  limit?: number;
  filters?: MemorySearchFilters;
  /** The recall tiers (units are hot). */
  tiers?: MemoryTier[];
  agentId?: string;
}) => Promise<MemorySearchResult[]>;

export interface RecalledUnit {
  hit: MemorySearchResult;
  review: ReviewState;
}

/** Units recalled per review state: approved ones fill the plane, the rest are receipts. */
const LIMITS: Record<ReviewState, number> = { approved: 12, draft: 4, deprecated: 4 };

/**
 * THE recall of the long-term plane: units (the hot tier) through the
 * project's recall, as the calling agent, each with its review state (one
 * recall per state, as search hits do not carry it).
 */
export async function recallUnits(
  search: SearchMemoryFn,
  query: string,
  agentId?: string,
): Promise<RecalledUnit[]> {
  const states: ReviewState[] = ['approved', 'draft', 'deprecated'];
  const found = await Promise.all(
    states.map((review) =>
      search({
        query,
        limit: LIMITS[review],
        filters: { kind: ['UNIT'], review: [review], includeDeprecated: review === 'deprecated' },
        tiers: ['hot'],
        ...(agentId ? { agentId } : {}),
      }).then((hits) => hits.map((hit) => ({ hit, review }))),
    ),
  );
  const seen = new Set<string>();
  return found.flat().filter(({ hit }) => {
    const key = hit.memoryId ?? `${hit.path}:${hit.startLine}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Long-term candidates: reviewed units are `approved`; drafts and deprecated ones are kept for the receipt. */
export async function longTermCandidates(
  search: SearchMemoryFn,
  query: string,
  agentId?: string,
): Promise<PackInput[]> {
  if (!query.trim()) return [];
  const units = await recallUnits(search, query, agentId);
  return units.map(({ hit, review }) => {
    const id = hit.memoryId ?? `RAW:${hit.path}#L${hit.startLine}-L${hit.endLine}`;
    return {
      id,
      plane: 'long-term' as const,
      text: hit.snippet,
      source: `.cairn/memory/${hit.path}`,
      trustClass: 'approved' as const,
      provenance: { kind: 'unit' as const, id, file: hit.path, line: hit.startLine },
      ...(hit.createdAt ? { recency: hit.createdAt } : {}),
      score: hit.score,
      why: `memory search match (${review}${hit.category ? `, ${hit.category}` : ''})`,
      reviewState: review,
      dedupeKey: hit.snippet.trim().toLowerCase(),
    };
  });
}
