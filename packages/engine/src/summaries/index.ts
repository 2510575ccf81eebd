/** Session summaries: extractive, OpenAI-compatible, or the harness's own, as one structured shape. */
export { withoutListLabel } from './extraction-rules';
export { createExtractiveSummarizer, EXTRACTIVE_SUMMARIZER_ID } from './extractive-summarizer';
export { harnessSummaryToStructured } from './harness-summary';
export { postChatCompletion } from './openai-http';
export { chatCompletionsUrl } from './openai-summarizer';
export { summarizerFromSettings } from './summarizer-from-settings';
export type { StructuredSummary, Summarizer } from './summary-types';
export { clip } from './text-bounds';
