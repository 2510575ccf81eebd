import { describe, expect, it } from 'vitest';
import { harnessSummaryToStructured } from './harness-summary';
import { HARNESS_TEXT_MAX_CHARS } from './summary-types';

/** Shaped like a Claude Code compaction summary (PostCompact `compact_summary`). */
const compactSummary = `This session is being continued from a previous conversation.

Analysis:
The user asked for retries in the sync client.

1. Primary Request and Intent:
   Add exponential backoff to src/sync/client.ts. We decided to cap retries at 2.

3. Files and Code Sections:
   - src/sync/client.ts
     - Why important: holds postJson
   - docs/CONFIG.md

4. Errors and fixes:
   - The sync test was failing; fixed by awaiting the retry.

7. Pending Tasks:
   - Document maxRetries in docs/CONFIG.md
   - Run \`pnpm biome check --write .\`

8. Current Work:
   Writing the changelog entry for the retry option.

9. Optional Next Step:
   Open the pull request once CI is green.`;

describe('harnessSummaryToStructured', () => {
  it('keeps the harness text verbatim and extracts lists with the same rules', () => {
    const summary = harnessSummaryToStructured(compactSummary);
    expect(summary.text).toBe(compactSummary);
    expect(summary.source).toBe('harness');
    expect(summary.status).toBe('Writing the changelog entry for the retry option.');
    expect(summary.decisions).toEqual(['We decided to cap retries at 2.']);
    expect(summary.nextSteps).toEqual([
      'Document maxRetries in docs/CONFIG.md',
      'Run `pnpm biome check --write .`',
      'Open the pull request once CI is green.',
    ]);
    expect(summary.files).toEqual(['src/sync/client.ts', 'docs/CONFIG.md']);
    expect(summary.commands).toEqual(['pnpm biome check --write .']);
    // "was failing; fixed by ..." reports a solved problem, not a blocker.
    expect(summary.blockers).toEqual([]);
  });

  it('names the source and falls back to the first sentence for status', () => {
    const summary = harnessSummaryToStructured(
      'Refactored the loader. Next, add tests.',
      'opencode',
    );
    expect(summary.source).toBe('opencode');
    expect(summary.status).toBe('Refactored the loader.');
    expect(summary.nextSteps).toEqual(['Next, add tests.']);
  });

  it('bounds only very long text', () => {
    const long = `Status: fine.\n${'word '.repeat(6000)}`;
    const summary = harnessSummaryToStructured(long);
    expect(summary.text.length).toBeLessThanOrEqual(HARNESS_TEXT_MAX_CHARS);
    expect(summary.text.length).toBeGreaterThan(HARNESS_TEXT_MAX_CHARS - 10);
    expect(summary.text.startsWith('Status: fine.\nword word')).toBe(true);
    expect(summary.text.endsWith('…')).toBe(true);
    expect(harnessSummaryToStructured('')).toMatchObject({ text: '', decisions: [] });
  });

  it('rejects a non-string with INVALID_INPUT', () => {
    expect(() => harnessSummaryToStructured(42 as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
