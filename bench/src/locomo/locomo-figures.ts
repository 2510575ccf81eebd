import type { AdapterFigures } from '../retrieval/locomo-adapters';
import type { QmdLocomoExtras } from '../retrieval/locomo-qmd';
import type { BuildCounts, MappingCounts } from './cairn-memory';
import type { MetricSummary } from './metrics';

export interface ConversationFigures extends BuildCounts {
  id: string;
  sessions: number;
  questions: number;
  addMs: number;
  mapping: MappingCounts;
}

export interface LocomoFigures {
  quick: boolean;
  data: string;
  conversations: ConversationFigures[];
  questions: {
    scored: number;
    adversarialSkipped: number;
    noEvidenceSkipped: number;
    droppedEvidenceIds: number;
  };
  /** Every engine adapter, then qmd's search, then the qmd backend (first conversation only). */
  adapters: AdapterFigures[];
  qmd: QmdLocomoExtras & { node: string | undefined };
  bm25: Record<string, MetricSummary>;
  /** BM25 over the first conversation's questions, beside the first-conversation-only runs. */
  bm25FirstConversation: MetricSummary | undefined;
  /** The split's conversations ranking constants were chosen on, and the others (held out). */
  parts: { tuned: string[]; heldOut: string[] };
  /** Per adapter id (and `bm25`), the metrics over each part's questions. */
  byPart: Record<string, { tuned?: MetricSummary; heldOut?: MetricSummary }>;
}
