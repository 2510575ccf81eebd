import type { ContextPack, PackProfileName } from '@cairn/engine';
import { meaningfulTerms } from '@cairn/engine/internals';
import type { LabelledRequest, Topic } from './injection-dataset';
import type { TopicItems } from './injection-measure';

/**
 * Why an injection missed what answers a request, and why it carried what
 * does not (`pnpm bench injection --explain <file>`, a tuning aid, never
 * user output). Each labelled item left out is put in one class: not
 * retrieved by its plane's search at all, retrieved and below the
 * relevance floor, a duplicate (of which item), cut by the budget (with the
 * plane's share and what the pack used), or another exclusion; an item
 * below the floor is also counted by how many of the request's meaningful
 * terms its own words share (0, 1, 2 or more: a paraphrase, a request
 * word its other words do not back, or a floor too strict). Each
 * injected unlabelled item is named by kind, with the request's terms it
 * shares. The held-out part is summed by class only: it is never looked at
 * item by item while tuning.
 */

export type MissClass =
  | 'not-retrieved'
  | 'not-relevant'
  | 'duplicate'
  | 'over-budget'
  | 'already-shown'
  | 'other';

/** A labelled item's exclusion id: a unit's id, a section's `DOC:path#L<start>-…`. */
export interface LabelledIds {
  /** `unit UNIT:…` or `document README.md#Deploy key`, as the score names it. */
  name: string;
  /** Matches the item's exclusion id. */
  matches: (id: string) => boolean;
  /** The item's words: the unit's text, the section's heading and body. */
  text: string;
}

export interface ExplainState {
  misses: Map<string, Map<MissClass, number>>;
  /** Of the misses below the floor, by profile and part: how many share 0, 1, 2+ request terms. */
  shared: Map<string, Map<string, number>>;
  unlabelled: Map<string, { items: number; tokens: number }>;
  lines: string[];
}

export const explainState = (): ExplainState => ({
  misses: new Map(),
  shared: new Map(),
  unlabelled: new Map(),
  lines: [],
});

/** The labelled items of a request, with how each is named in an exclusion. */
export function labelledIds(
  request: LabelledRequest,
  topics: ReadonlyMap<string, TopicItems>,
  sectionLines: ReadonlyMap<string, number>,
  rows: ReadonlyMap<string, Topic>,
): LabelledIds[] {
  const out: LabelledIds[] = [];
  for (const key of request.topics) {
    const topic = topics.get(key);
    const row = rows.get(key);
    if (!topic || !row) continue;
    const unitId = topic.unit.slice('unit '.length);
    out.push({ name: topic.unit, matches: (id) => id === unitId, text: row.unit });
    if (!topic.document || !row.section) continue;
    const [path, heading] = topic.document.slice('document '.length).split('#') as [string, string];
    const line = sectionLines.get(`${path}#${heading}`) ?? -10;
    out.push({
      name: topic.document,
      matches: (id) => {
        const match = /^DOC:(.+)#L(\d+)-L\d+$/.exec(id);
        return !!match && match[1] === path && Math.abs(Number(match[2]) - line) <= 1;
      },
      text: `${row.section.heading}\n${row.section.body}`,
    });
  }
  return out;
}

function classOf(reason: string): MissClass {
  if (
    reason === 'not-relevant' ||
    reason === 'duplicate' ||
    reason === 'over-budget' ||
    reason === 'already-shown'
  )
    return reason;
  return 'other';
}

const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** The request's meaningful terms an item's words hold, as the relevance floor reads both. */
const sharedWith = (query: ReadonlySet<string>, text: string) =>
  [...meaningfulTerms(text)].filter((term) => query.has(term));

function budgetLine(pack: ContextPack): string {
  const planes = pack.budget.planes
    .map((p) => `${p.plane} ${p.used}/${p.share}+${p.carriedIn}`)
    .join(', ');
  return `budget used ${pack.budget.used}/${pack.budget.total} (${planes})`;
}

/** One pack explained against its labels; the lines only for the parts that may be tuned. */
export function explainPack(
  state: ExplainState,
  profile: PackProfileName,
  request: LabelledRequest,
  pack: ContextPack,
  labelled: readonly LabelledIds[],
): void {
  const detail = request.part !== 'held-out';
  const lines = [`=== ${profile} ${request.id}: ${request.text}`];
  const query = meaningfulTerms(pack.query);
  const key = `${profile} ${request.part}`;
  const misses = state.misses.get(key) ?? new Map<MissClass, number>();
  state.misses.set(key, misses);
  const shared = state.shared.get(key) ?? new Map<string, number>();
  state.shared.set(key, shared);
  for (const label of labelled) {
    if (pack.items.some((item) => label.matches(item.id))) continue;
    const exclusion = pack.excluded.find((e) => label.matches(e.id));
    const kind = exclusion ? classOf(exclusion.reason) : 'not-retrieved';
    count(misses, kind);
    const holds = sharedWith(query, label.text);
    if (kind === 'not-relevant')
      count(shared, `shares ${Math.min(2, holds.length)}${holds.length >= 2 ? '+' : ''}`);
    const why = exclusion
      ? `${exclusion.reason}${exclusion.duplicateOf ? ` of ${exclusion.duplicateOf}` : ''}${exclusion.reason === 'over-budget' ? `; ${budgetLine(pack)}` : ''}`
      : 'not retrieved by its plane';
    lines.push(
      `MISS ${label.name}: ${why}; shares [${holds.join(', ')}] of [${[...query].join(', ')}]`,
    );
  }
  for (const item of pack.items) {
    if (item.id.startsWith('head:') || labelled.some((label) => label.matches(item.id))) continue;
    const kind = `${profile} ${request.part} ${item.plane}/${item.provenance.kind}`;
    const entry = state.unlabelled.get(kind) ?? { items: 0, tokens: 0 };
    entry.items += 1;
    entry.tokens += item.tokenCost;
    state.unlabelled.set(kind, entry);
    const holds = sharedWith(query, item.text);
    lines.push(
      `EXTRA ${item.plane}/${item.provenance.kind} ${item.id} score ${item.score.toFixed(2)} ${item.tokenCost} tokens, shares [${holds.join(', ')}]: ${item.text.split('\n')[0]!.slice(0, 100)}`,
    );
  }
  if (detail) state.lines.push(...lines);
}

/** The totals, by profile and part: misses by class, unlabelled items by kind. */
export function explainTotals(state: ExplainState): string[] {
  const out = ['=== totals'];
  for (const [key, misses] of state.misses)
    out.push(`misses ${key}: ${[...misses].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  for (const [key, shared] of state.shared)
    if (shared.size > 0)
      out.push(
        `below the floor ${key}: ${[...shared]
          .sort()
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
      );
  for (const [key, { items, tokens }] of state.unlabelled)
    out.push(`unlabelled ${key}: ${items} items, ${tokens} tokens`);
  return out;
}
