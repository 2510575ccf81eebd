import { redactSecrets } from '@cairn/core';
import type { PackItem } from '../packs/compose-pack';
import { escapePackText, normalizeBreaks } from '../packs/escape-pack-text';
import type { PackExclusion } from '../packs/pack-types';
import { layoutPackItem } from '../packs/render-pack';
import type { TokenCounter } from '../packs/token-counter';
import { TEAM_HEAD_FOOTER } from './team-head';
import type { ThreadHeadState } from './thread-state';

/**
 * The memory head and the thread head are derived items of the history
 * plane, pinned: they go in first and are paid from the top of the budget,
 * each within its share of it; the planes share what they leave.
 */
export const HEAD_SHARES = { memory: 0.4, thread: 0.2 } as const;

export const MEMORY_HEAD_ID = 'head:memory';
export const threadHeadId = (threadKey: string) => `head:thread:${threadKey}`;

/** The head region as item text: its `### Section` titles as `Section:` lines, without the footer. */
export function memoryHeadText(region: string): string {
  return region
    .split('\n')
    .filter((line) => !line.startsWith('_Cairn head, rendered') && line !== TEAM_HEAD_FOOTER)
    .map((line) => line.replace(/^#{1,6}\s+(.*)$/, '$1:'))
    .join('\n')
    .trim();
}

const list = (title: string, items: readonly string[]) =>
  items.length ? [`${title}:`, ...items.map((item) => `- ${item}`)] : [];

/** A thread's head as item text: status, next action, decisions, open loops, lineage. */
export function threadHeadText(state: ThreadHeadState): string {
  return [
    `Status: ${state.status || '(no summary yet)'}`,
    `Next action: ${state.nextAction || '(none recorded)'}`,
    ...list('Decisions', state.decisions),
    ...list('Open loops', state.openLoops),
    ...list(
      'Lineage (expand with memory_expand)',
      state.lineage.map((id) => `\`${id}\``),
    ),
  ].join('\n');
}

export interface HeadCandidate {
  id: string;
  /** How its provenance names it: `memory`, `thread <key>`. */
  name: string;
  text: string;
  source: string;
  file: string;
  why: string;
  /** Its share of the budget. */
  share: number;
}

export interface HeadFit {
  items: PackItem[];
  excluded: PackExclusion[];
  tokens: number;
}

/**
 * Fits each head into its share of the budget, cutting whole lines from
 * the end (recent threads and next actions come first in a head). A head
 * of which not even one line fits is excluded as `over-budget`.
 */
function headItem(head: HeadCandidate, lines: string[], whole: number, redacted: string[]) {
  const cut = lines.length < whole ? ` (cut to ${lines.length} of ${whole} lines)` : '';
  return {
    id: head.id,
    plane: 'history' as const,
    text: lines.join('\n'),
    source: head.source,
    trustClass: 'derived' as const,
    provenance: { kind: 'head' as const, id: head.name, file: head.file },
    tokenCost: 0,
    score: 1,
    why: `${head.why}, pinned within ${Math.round(head.share * 100)}% of the budget${cut}`,
    redacted,
  };
}

/** The largest `keep` in [0, most] for which `fits(keep)` holds, `fits` holding for fewer lines whenever it holds for more. */
function mostThatFit(most: number, fits: (keep: number) => boolean): number {
  let low = 0;
  let high = most;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

export function fitHeads(
  heads: readonly HeadCandidate[],
  budgetTokens: number,
  counter: TokenCounter,
): HeadFit {
  const fit: HeadFit = { items: [], excluded: [], tokens: 0 };
  for (const head of heads) {
    const allowance = Math.floor(budgetTokens * head.share);
    const redaction = redactSecrets(head.text);
    const redacted = redaction.found.map((f) => f.kind);
    const text = normalizeBreaks(redaction.text);
    const lines = text.split('\n');
    // Escaped once (the text is redacted already): the first `keep` lines of
    // the escaped text are the escaped first `keep` lines, so each cut
    // costs a count, not a render (renderPackItem redacts and escapes).
    const prepared = escapePackText(text).split('\n');
    const cost = (keep: number) =>
      counter.count(
        layoutPackItem(
          headItem(head, lines.slice(0, keep), lines.length, redacted),
          prepared.slice(0, keep).join('\n').trim(),
        ),
      );
    // One pass: each line's cost (plus its indent) gives the cut; one count of
    // the whole checks it, and when the estimate disagrees the most lines up
    // to that cut that fit are found by halving (a count of the whole is a
    // pass over the head, so not one per line taken off).
    let low = lines.length;
    if (cost(low) > allowance) {
      let sum = cost(0);
      low = 0;
      for (const line of lines) {
        sum += counter.count(line) + 2;
        if (sum > allowance) break;
        low += 1;
      }
      if (low > 0 && cost(low) > allowance)
        low = mostThatFit(low - 1, (keep) => cost(keep) <= allowance);
    }
    if (low === 0) {
      fit.excluded.push({
        id: head.id,
        plane: 'history',
        reason: 'over-budget',
        tokenCost: cost(1),
      });
      continue;
    }
    const tokenCost = cost(low);
    fit.items.push({ ...headItem(head, lines.slice(0, low), lines.length, redacted), tokenCost });
    fit.tokens += tokenCost;
  }
  return fit;
}

export const MEMORY_HEAD_FILE = '.cairn/memory/MEMORY.md';
