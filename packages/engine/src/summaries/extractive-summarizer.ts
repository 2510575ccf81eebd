import { extractFromTranscript } from './extract-summary';
import { renderSummaryMarkdown } from './render-summary';
import { parseSummaryRequest } from './summary-request';
import type { StructuredSummary, Summarizer, SummaryRequest } from './summary-types';

export const EXTRACTIVE_SUMMARIZER_ID = 'extractive';

/**
 * The offline default: pattern rules (see extraction-rules.ts) over the
 * transcript and the previous summary. No clock, no randomness, no I/O, so
 * the same request always gives byte-identical output.
 */
export function createExtractiveSummarizer(): Summarizer {
  return {
    id: EXTRACTIVE_SUMMARIZER_ID,
    async summarize(input: SummaryRequest): Promise<StructuredSummary> {
      const request = parseSummaryRequest(input);
      const extracted = extractFromTranscript(request.transcript, request.previous);
      return {
        text: renderSummaryMarkdown(extracted, request.maxChars),
        ...extracted,
        source: EXTRACTIVE_SUMMARIZER_ID,
      };
    },
  };
}
