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
const STATES: readonly ReviewState[] = ['approved', 'draft', 'deprecated'];
const ALL = LIMITS.approved + LIMITS.draft + LIMITS.deprecated;

const reviewOf = (hit: MemorySearchResult): ReviewState | undefined =>
  STATES.find((state) => state === hit.review);

type RecallByReview = (review: ReviewState[], limit: number) => Promise<MemorySearchResult[]>;

/** One recall per review state, each hit's state the one its recall asked for. */
async function recallPerState(recall: RecallByReview): Promise<RecalledUnit[]> {
  const found = await Promise.all(
    STATES.map((review) =>
      recall([review], LIMITS[review]).then((hits) => hits.map((hit) => ({ hit, review }))),
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

/**
 * THE recall of the long-term plane: units (the hot tier) through the
 * project's recall, as the calling agent, each with its review state. One
 * recall over every state: the index ranks each hit the same whatever the
 * review filter, so the approved units among its best are the best
 * approved units. Only when that recall came back full with too few of
 * them does a second, approved-only recall run. Drafts and deprecated
 * units are those ranked among the best (they only fill the receipt).
 */
export async function recallUnits(
  search: SearchMemoryFn,
  query: string,
  agentId?: string,
): Promise<RecalledUnit[]> {
  const recall: RecallByReview = (review, limit) =>
    search({
      query,
      limit,
      filters: { kind: ['UNIT'], review, includeDeprecated: review.includes('deprecated') },
      tiers: ['hot'],
      ...(agentId ? { agentId } : {}),
    });
  const hits = await recall([...STATES], ALL);
  // An index that does not report review states is asked once per state.
  if (hits.some((hit) => !reviewOf(hit))) return recallPerState(recall);
  const taken = new Map<ReviewState, number>();
  const found: RecalledUnit[] = [];
  for (const hit of hits) {
    const review = reviewOf(hit);
    if (!review || (taken.get(review) ?? 0) >= LIMITS[review]) continue;
    taken.set(review, (taken.get(review) ?? 0) + 1);
    found.push({ hit, review });
  }
  if (hits.length === ALL && (taken.get('approved') ?? 0) < LIMITS.approved) {
    const approved = await recall(['approved'], LIMITS.approved);
    return [
      ...approved.map((hit) => ({ hit, review: 'approved' as const })),
      ...found.filter((unit) => unit.review !== 'approved'),
    ];
  }
  return found;
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
