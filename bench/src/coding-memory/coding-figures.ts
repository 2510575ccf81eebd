import type { Distribution } from '../stats';
import type { PartKey, RankSummary } from './rank-metrics';

export interface CodingAdapterFigures {
  id: string;
  label: string;
  available: boolean;
  reason?: string;
  byPart?: Record<PartKey, RankSummary>;
  byKind?: Record<string, RankSummary>;
  /** Refresh plus the first search (the index build). */
  buildMs?: number;
  search?: Distribution;
  /** Questions whose unit was not first, with what was. */
  misses?: { question: string; part: string; want: string; rank: number; first?: string }[];
}

export interface CodingFigures {
  quick: boolean;
  units: number;
  questions: Record<PartKey, number>;
  addMs: number;
  adapters: CodingAdapterFigures[];
  bm25: { byPart: Record<PartKey, RankSummary>; byKind: Record<string, RankSummary> };
}
