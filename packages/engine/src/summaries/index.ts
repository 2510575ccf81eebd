export { createExtractiveSummarizer, EXTRACTIVE_SUMMARIZER_ID } from './extractive-summarizer';
export { createFallbackSummarizer } from './fallback-summarizer';
export { harnessSummaryToStructured } from './harness-summary';
export {
  chatCompletionsUrl,
  createOpenAiSummarizer,
  type OpenAiSummarizerOptions,
} from './openai-summarizer';
export { renderSummaryMarkdown } from './render-summary';
export { type SummarizerSettings, summarizerFromSettings } from './summarizer-from-settings';
export {
  DEFAULT_MAX_CHARS,
  HARNESS_TEXT_MAX_CHARS,
  ITEM_MAX_CHARS,
  LIST_LIMIT,
  type StructuredSummary,
  type Summarizer,
  type SummaryRequest,
  type TranscriptLine,
} from './summary-types';
