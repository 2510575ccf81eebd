import { parseInput } from '@cairn/core';
import * as z from 'zod/mini';
import { extractFromText } from './extract-summary';
import { HARNESS_TEXT_MAX_CHARS, type StructuredSummary } from './summary-types';
import { clipBlock } from './text-bounds';

/**
 * A harness's own compaction summary (Claude Code's PostCompact
 * `compact_summary`, OpenCode's summary message, Codex's `compacted` item)
 * as a StructuredSummary. The harness summarized with the full context the
 * model had, so it is always preferred over Cairn's own summarizers: the
 * text is kept verbatim (up to HARNESS_TEXT_MAX_CHARS) and the lists are
 * only extracted from it with the same rules, for thread heads.
 */
export function harnessSummaryToStructured(text: string, source = 'harness'): StructuredSummary {
  const summaryText = parseInput(z.string(), text, 'harness summary');
  const extracted = extractFromText(summaryText);
  return { text: clipBlock(summaryText, HARNESS_TEXT_MAX_CHARS), ...extracted, source };
}
