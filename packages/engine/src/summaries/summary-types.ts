/**
 * The summarizer contract. Thread heads (Tier 2) and compaction nodes need a
 * short, structured account of a transcript; it comes from the harness when
 * the harness provides one, otherwise from a `Summarizer`.
 */

/** One entry of a conversation, as a harness reports it. */
export interface TranscriptLine {
  role: 'user' | 'assistant' | 'tool' | 'system';
  /** The message text; for a `tool` entry, the tool's input. */
  text: string;
  /** The tool's name, for `tool` entries (`Bash`, `Edit`, ...). */
  toolName?: string;
  /** ISO timestamp, when the harness records one. */
  at?: string;
}

export interface SummaryRequest {
  transcript: TranscriptLine[];
  /** The thread the transcript belongs to; a model can use it for context. */
  threadKey?: string;
  /** The thread's previous summary, so a rolling summary keeps its decisions. */
  previous?: string;
  /** Upper bound on `text`, in characters. Default {@link DEFAULT_MAX_CHARS}. */
  maxChars?: number;
}

export interface StructuredSummary {
  /** A readable markdown summary, bounded by `maxChars`. */
  text: string;
  /** One line: where things stand. */
  status?: string;
  decisions: string[];
  commitments: string[];
  blockers: string[];
  nextSteps: string[];
  files: string[];
  commands: string[];
  /** Who wrote it: `extractive`, `openai:<model>`, `harness`, ... */
  source: string;
  /** Set when a preferred summarizer failed and a fallback answered instead. */
  warnings?: string[];
}

export interface Summarizer {
  readonly id: string;
  summarize(request: SummaryRequest): Promise<StructuredSummary>;
}

/** The list fields of a StructuredSummary, in rendering order. */
export const SUMMARY_LIST_KEYS = [
  'decisions',
  'commitments',
  'blockers',
  'nextSteps',
  'files',
  'commands',
] as const;

export type SummaryListKey = (typeof SUMMARY_LIST_KEYS)[number];

export type SummaryLists = Record<SummaryListKey, string[]>;

export const DEFAULT_MAX_CHARS = 2000;
/** Items kept per list; the latest win. */
export const LIST_LIMIT = 8;
/** Characters kept per list item and for `status`. */
export const ITEM_MAX_CHARS = 200;
/** Bound on a harness-provided summary kept verbatim. */
export const HARNESS_TEXT_MAX_CHARS = 20_000;
