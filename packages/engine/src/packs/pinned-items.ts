import { redactSecrets } from '@cairn/core';
import { escapePackText, normalizeBreaks } from './escape-pack-text';
import type { PackExclusion, PackItem } from './pack-types';
import { layoutPackItem } from './render-pack';
import type { TokenCounter } from './token-estimate';

/**
 * A pinned item (the memory head, a thread head): derived, of the history
 * plane, it goes in before the planes share the budget, paid from its own
 * share of it and cut line by line from the end when longer.
 */
export interface HeadCandidate {
  id: string;
  /** How its provenance names it: `memory`, `thread <key>`. */
  name: string;
  text: string;
  source: string;
  /** The workspace file it is rendered into, from the project root. */
  file: string;
  why: string;
  /** Its share of the budget. */
  share: number;
}

export interface HeadFit {
  items: PackItem[];
  excluded: PackExclusion[];
  tokens: number;
  /** Each item rendered as it is costed (`renderPackItem`), by id: the pack is rendered once. */
  rendered: Map<string, string>;
}

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

/** The most lines of a head that fit `allowance` (0 when not one does). */
function linesThatFit(
  lines: readonly string[],
  allowance: number,
  cost: (keep: number) => number,
  counter: TokenCounter,
): number {
  // One pass: each line's cost (plus its indent) gives the cut; one count of
  // the whole checks it, and when the estimate disagrees the most lines up
  // to that cut that fit are found by halving (a count of the whole is a
  // pass over the head, so not one per line taken off).
  let low = lines.length;
  if (cost(low) <= allowance) return low;
  let sum = cost(0);
  low = 0;
  for (const line of lines) {
    sum += counter.count(line) + 2;
    if (sum > allowance) break;
    low += 1;
  }
  if (low > 0 && cost(low) > allowance)
    low = mostThatFit(low - 1, (keep) => cost(keep) <= allowance);
  return low;
}

/**
 * Fits each head into its share of the budget, cutting whole lines from
 * the end (recent threads and next actions come first in a head). A head
 * of which not even one line fits is excluded as `over-budget`.
 */
export function fitHeads(
  heads: readonly HeadCandidate[],
  budgetTokens: number,
  counter: TokenCounter,
): HeadFit {
  const fit: HeadFit = { items: [], excluded: [], tokens: 0, rendered: new Map() };
  for (const head of heads) {
    const allowance = Math.floor(budgetTokens * head.share);
    const redaction = redactSecrets(head.text);
    const redacted = redaction.found.map((f) => f.kind);
    const lines = normalizeBreaks(redaction.text).split('\n');
    // Escaped once, line by line (the text is redacted already): each cut
    // costs a layout and a count, not a render (renderPackItem redacts and escapes).
    const prepared = lines.map(escapePackText);
    const layout = (keep: number) =>
      layoutPackItem(
        headItem(head, lines.slice(0, keep), lines.length, redacted),
        prepared.slice(0, keep).join('\n').trim(),
      );
    const cost = (keep: number) => counter.count(layout(keep));
    const low = linesThatFit(lines, allowance, cost, counter);
    if (low === 0) {
      fit.excluded.push({
        id: head.id,
        plane: 'history',
        reason: 'over-budget',
        tokenCost: cost(1),
      });
      continue;
    }
    const text = layout(low);
    const tokenCost = counter.count(text);
    fit.items.push({ ...headItem(head, lines.slice(0, low), lines.length, redacted), tokenCost });
    fit.rendered.set(head.id, text);
    fit.tokens += tokenCost;
  }
  return fit;
}
