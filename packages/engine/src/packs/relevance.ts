import type { PackExclusion, PackInput, PackPlane } from './pack-types';
import { evidence, headingAnswers, queryParts } from './query-parts';
import { meaningfulTerms, NO_VOCABULARY, type QueryVocabulary } from './relevance-terms';

export { LONG_TEXT_TERMS, minSharedTerms } from './query-parts';

/**
 * Relevance before budget (docs/PACKS.md): an item enters a pack because
 * it answers the request's query, never because budget is left. The
 * evidence an item holds is the share of the query's weight its words
 * carry (its coverage), each query term weighed by its rarity among the
 * pack's candidates, `log(1 + N / df)`; a term no candidate holds weighs
 * as much as the rarest (the request asks for something memory may not
 * hold, and no item gets its share). An item is relevant when:
 *
 * - **shared terms**: it holds at least `minSharedTerms` of the query's
 *   meaningful terms (`meaningfulTerms`: stop words and request words out,
 *   identifier parts in, each word cut to the search index's stem), one
 *   more when it is long; and its coverage is at least `MIN_COVERAGE`. A
 *   term is also held through another way of saying it that the search
 *   looked for (`queryVocabulary`: its glossaries and word forms, at the
 *   share `ALTERNATIVE_SHARES` gives), as long as the item holds at least
 *   one of the request's own terms: a synonym backs a word, never stands
 *   alone;
 * - **relative to the best**: its coverage is at least a share of the
 *   best coverage (`relativeFloor`), a share that grows with the best:
 *   when one candidate holds the query's rare words, one holding only its
 *   common ones answers something else. The best is that of the
 *   request's own words: a synonym lifts the item that holds it, it does
 *   not raise the bar for the others. Units and document sections are
 *   measured against the best of their plane (a unit and a section answer
 *   in different words); history items (digests, summaries, fix patterns)
 *   against the best unit or section, with a higher share
 *   (`HISTORY_RELATIVE`), and at least `HISTORY_MIN_COVERAGE`: a run's
 *   story holds the query's words by chance more often than a unit does.
 *   An item is read by its own words (`matchText`): a digest's `Run …:`
 *   and `Outcome: failed` labels and a fix's `Candidate fix for the
 *   error` are Cairn's, and would match any request about runs or errors;
 * - **the ranker's floor**: where a plane's scores come from a ranker
 *   (units, documents), it scores at least `floor` times the best
 *   candidate of its plane that passes the tests above;
 * - **few weak items**: of the items whose coverage is below
 *   `STRONG_COVERAGE`, at most `MAX_WEAK` are kept, the best first (of
 *   equal coverage, the most focused: fewest terms of its own).
 *
 * A document section whose heading the request names (every meaningful
 * term of the heading is one of a part's, or another way of saying one)
 * is as relevant as one holding the whole part, once it passes the
 * shared-terms test: "how do we cut a release?" is answered by
 * `## Releasing` whatever its body says (`headingAnswers`).
 *
 * A query made of parts (a prompt's sentences; session start's thread
 * status, next action and open loops, one a line) is judged part by part:
 * an item answering one part is relevant. An item the request names (`match: 'named'`: the run
 * the pack is for, the Beads issue the query names, the fix of the
 * failure it follows) is relevant whatever its words. With recall by
 * meaning (an embedder that ranks by meaning is configured), a paraphrase
 * shares no word with what it finds: the ranker's floor alone decides, in
 * the planes it ranks. A query with no meaningful term finds nothing.
 */

/** The least share of the query's weight a relevant item holds. */
export const MIN_COVERAGE = 0.3;
/**
 * The share of the best coverage an item of a ranked plane needs:
 * `RELATIVE_BASE + RELATIVE_SLOPE * best`, so 0.6 of a weak best and 0.85
 * of a best that holds the whole query.
 */
export const RELATIVE_BASE = 0.5;
export const RELATIVE_SLOPE = 0.35;
/** The share of the pack's best coverage a history item needs. */
export const HISTORY_RELATIVE = 0.9;
/** The least coverage of a history item: a run's story or a session's summary holds words by chance. */
export const HISTORY_MIN_COVERAGE = 0.6;
/** Items whose coverage is below this are weakly related ... */
export const STRONG_COVERAGE = 0.5;
/** ... and at most this many of them are kept. */
export const MAX_WEAK = 2;

/** The share of `best` a candidate's coverage must reach, in a plane measured against its own best. */
export const relativeFloor = (best: number) => (RELATIVE_BASE + RELATIVE_SLOPE * best) * best;

/**
 * What the floor reads of a candidate: its own words (`matchText` where
 * its plane set one: a digest without Cairn's labels), a document's path
 * and heading, and for a raw item its quotes; a derived or approved item
 * stands on its words, not on the tool output quoted under it.
 */
function candidateText(candidate: PackInput): string {
  const quotes =
    candidate.trustClass === 'raw' ? (candidate.quotes?.map((quote) => quote.text) ?? []) : [];
  const place =
    candidate.provenance.kind === 'document'
      ? [candidate.provenance.id, candidate.provenance.heading ?? '']
      : [candidate.provenance.heading ?? ''];
  return [candidate.matchText ?? candidate.text, ...quotes, ...place].join('\n');
}

export interface RelevanceResult {
  kept: PackInput[];
  excluded: PackExclusion[];
}

const notRelevant = (candidate: PackInput): PackExclusion => ({
  id: candidate.id,
  plane: candidate.plane,
  reason: 'not-relevant',
  tokenCost: 0,
});

/** Planes measured against their own best (the ranked ones); the others against the pack's best. */
function passesFloors(
  candidates: readonly PackInput[],
  covered: readonly number[],
  literal: readonly number[],
  ranked: (plane: PackPlane) => boolean,
): boolean[] {
  // The pack's best is that of the planes that answer (units, sections): a thread's own
  // summary says its status again, word for word, and would set the bar for everything.
  const bestOf = new Map<PackPlane | 'all' | 'any', number>();
  for (const [index, candidate] of candidates.entries()) {
    if (candidate.match === 'named') continue;
    const keys = ranked(candidate.plane)
      ? [candidate.plane, 'all', 'any']
      : [candidate.plane, 'any'];
    for (const key of keys as (PackPlane | 'all' | 'any')[])
      bestOf.set(key, Math.max(bestOf.get(key) ?? 0, literal[index]!));
  }
  if (!bestOf.get('all')) bestOf.set('all', bestOf.get('any') ?? 0);
  return candidates.map((candidate, index) => {
    const mine = covered[index]!;
    if (mine < MIN_COVERAGE) return false;
    if (ranked(candidate.plane)) return mine >= relativeFloor(bestOf.get(candidate.plane) ?? 0);
    return mine >= Math.max(HISTORY_MIN_COVERAGE, HISTORY_RELATIVE * (bestOf.get('all') ?? 0));
  });
}

/** The best score of each plane among the candidates that passed the word tests, for the ranker's floor. */
function bestScores(
  candidates: readonly PackInput[],
  wordsPass: readonly boolean[],
): Map<PackPlane, number> {
  const best = new Map<PackPlane, number>();
  for (const [index, candidate] of candidates.entries()) {
    if (candidate.match === 'named' || !wordsPass[index]) continue;
    const top = best.get(candidate.plane);
    best.set(candidate.plane, top === undefined ? candidate.score : Math.max(top, candidate.score));
  }
  return best;
}

/**
 * Of the weakly related items (coverage below `STRONG_COVERAGE`), the
 * best `MAX_WEAK`: the most covered, and of equally covered ones the most
 * focused (fewest terms of their own: an item about little else than the
 * request's words beats one that names them in passing), then by rank.
 */
function weakKept(
  indices: readonly number[],
  covered: readonly number[],
  texts: readonly ReadonlySet<string>[],
): Set<number> {
  const weak = indices
    .filter((index) => covered[index]! < STRONG_COVERAGE)
    .sort((a, b) => covered[b]! - covered[a]! || texts[a]!.size - texts[b]!.size || a - b);
  return new Set(weak.slice(0, MAX_WEAK));
}

export interface RelevanceOptions {
  /** Recall ranks by meaning: the ranked planes need no shared word. */
  byMeaning?: boolean;
  /** The query is made of parts, one a line (session start's thread state): judged part by part. */
  parts?: boolean;
  /** What the query's terms also match, after the search's expansion (`queryVocabulary`); default none. */
  vocabulary?: QueryVocabulary;
}

/**
 * Keeps the candidates relevant to `query` (see the file's comment);
 * the others are excluded as `not-relevant`. `floors` gives the relative
 * score floor of the planes a ranker scores (0 or absent: not ranked).
 */
export function relevantCandidates(
  query: string,
  candidates: readonly PackInput[],
  floors: Partial<Record<PackPlane, number>>,
  options: RelevanceOptions = {},
): RelevanceResult {
  const ranked = (plane: PackPlane) => (floors[plane] ?? 0) > 0;
  const texts = candidates.map((candidate) => meaningfulTerms(candidateText(candidate)));
  // What the request names is kept whatever its words: its words weigh nothing for the others.
  const pool = texts.filter((_, index) => candidates[index]!.match !== 'named');
  const named = new Set(
    texts.filter((_, i) => candidates[i]!.match === 'named').flatMap((t) => [...t]),
  );
  // The planes that answer (units, sections); a thread's own summary says the query again.
  const answering = texts.filter(
    (_, i) => candidates[i]!.match !== 'named' && ranked(candidates[i]!.plane),
  );
  const parts = queryParts(
    query,
    options.parts === true,
    pool,
    named,
    answering.length > 0 ? answering : pool,
    options.vocabulary ?? NO_VOCABULARY,
  );
  // A section whose heading the request names is as relevant as one holding all its words.
  const covered = texts.map((text, index) =>
    headingAnswers(parts, candidates[index]!, text) ? 1 : evidence(parts, text),
  );
  // The bar is set by the request's own words: a synonym lifts the item that holds it, not the bar.
  const literal = texts.map((text) => evidence(parts, text, true));
  const floorsPass = passesFloors(candidates, covered, literal, ranked);
  const wordsPass = candidates.map(
    (candidate, index) =>
      parts.length > 0 &&
      ((options.byMeaning === true &&
        (ranked(candidate.plane) || candidate.trustClass === 'raw')) ||
        floorsPass[index]!),
  );
  const best = bestScores(candidates, wordsPass);
  const passing: number[] = [];
  for (const [index, candidate] of candidates.entries()) {
    if (candidate.match === 'named' || !wordsPass[index]) continue;
    // Scores that are not positive (ranks of a fallback) give no floor.
    const top = best.get(candidate.plane) ?? 0;
    const floor = top > 0 ? (floors[candidate.plane] ?? 0) * top : Number.NEGATIVE_INFINITY;
    if (candidate.score >= floor) passing.push(index);
  }
  const weak = options.byMeaning ? undefined : weakKept(passing, covered, texts);
  const kept = new Set(
    passing.filter((index) => !weak || covered[index]! >= STRONG_COVERAGE || weak.has(index)),
  );
  const result: RelevanceResult = { kept: [], excluded: [] };
  for (const [index, candidate] of candidates.entries()) {
    if (candidate.match === 'named' || kept.has(index)) result.kept.push(candidate);
    else result.excluded.push(notRelevant(candidate));
  }
  return result;
}
