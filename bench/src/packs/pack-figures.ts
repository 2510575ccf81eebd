import type { Distribution } from '../stats';

/** The budget of every measured pack, and the p95 a pack should stay under (information only). */
export const PACK_BUDGET = 2000;
export const PACK_P95_TARGET_MS = 30;

export interface BudgetCheck {
  counter: 'estimate' | 'o200k_base';
  requests: number;
  /** Rendered packs whose text, counted again, is over the request's budget. */
  overBudget: { estimate: number; tokenizer: number };
  /** The largest text tokens / budget over the requests with a budget above 0. */
  maxRatio: { estimate: number; tokenizer: number };
  /** Requests with budget 0 whose pack was not empty. */
  nonEmptyAtZero: number;
  examples: {
    budgetTokens: number;
    estimate: number;
    tokenizer: number;
    planes?: string[];
    /** The query's first words and its length. */
    query: string;
  }[];
}

export interface PackFigures {
  budgetTokens: number;
  queries: number;
  beadsIssues: number;
  documents: number;
  documentsPlane: string;
  total: Distribution;
  /** CPU time of the process per pack (user + system): less swayed by other work on the machine. */
  cpu: Distribution;
  planes: { plane: string; status: string; ms: Distribution; candidates: number }[];
  items: Distribution;
  budget: BudgetCheck[];
}
