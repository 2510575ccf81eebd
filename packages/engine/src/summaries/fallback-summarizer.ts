import { formatError } from '@cairn/core';
import type { StructuredSummary, Summarizer, SummaryRequest } from './summary-types';

/**
 * Fail-open: asks `primary`, and when it throws, answers with `fallback`'s
 * summary plus a warning carrying the primary's error, so a model server
 * that is down costs summary quality, never the summary.
 */
export function createFallbackSummarizer(primary: Summarizer, fallback: Summarizer): Summarizer {
  return {
    id: `${primary.id}>${fallback.id}`,
    async summarize(request: SummaryRequest): Promise<StructuredSummary> {
      try {
        return await primary.summarize(request);
      } catch (error) {
        const summary = await fallback.summarize(request);
        const warning = `summarizer ${primary.id} failed, used ${fallback.id}: ${formatError(error)}`;
        return { ...summary, warnings: [...(summary.warnings ?? []), warning] };
      }
    },
  };
}
