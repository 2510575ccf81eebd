import type { PackExclusion, PackInput, PackPlane } from './pack-types';
import { meaningfulTerms, sharedTerms } from './relevance-terms';

/** The words of a request that hold a meaningful term. */
function meaningfulWords(query: string): number {
  return query.split(/\s+/).filter((word) => meaningfulTerms(word).size > 0).length;
}

/**
 * Relevance before budget (docs/PACKS.md): an item enters a pack because
 * it answers the request's query, never because budget is left. Two
 * tests, both needed:
 *
 * - **shared terms**: the item holds at least `minSharedTerms` of the
 *   query's meaningful terms (`meaningfulTerms`: stop words and request
 *   words out, identifier parts and base forms in): one for a query of up
 *   to three terms, two for a longer one; and those it holds carry at
 *   least `MIN_COVERAGE` of the query's weight, each term weighed by its
 *   rarity among the pack's candidates;
 * - **the ranker's floor**: where a plane's scores come from a ranker
 *   (units, documents), the item scores at least `floor` times the best
 *   candidate of its plane that passes the shared-terms test. Planes whose scores are Cairn's own tallies
 *   (history, planning) have no floor: the shared terms decide.
 *
 * An item the request names (`match: 'named'`: the run the pack is for,
 * the Beads issue the query names, the fix of the failure it follows) is
 * relevant whatever its words. With recall by meaning (an embedder that
 * ranks by meaning is configured), a paraphrase shares no word with what
 * it finds: the ranker's floor alone decides, in the planes it ranks. A
 * query with no meaningful term finds nothing relevant.
 */

/**
 * The share of the query's weight an item must hold, each query term
 * weighed by how rare it is among the pack's candidates (a word most of
 * them hold, `deploy` in a deploy-heavy project, tells little), over the
 * terms some candidate holds.
 */
export const MIN_COVERAGE = 0.3;
/**
 * And, in a plane a ranker scores (units, document sections), at least
 * this share of the best coverage among its plane's candidates: when one
 * of them holds the query's rare words, one that holds only its common
 * ones answers something else.
 */
export const RELATIVE_COVERAGE = 0.6;
/** Past this many distinct terms a text is long: it needs one shared term more. */
export const LONG_TEXT_TERMS = 25;

/** Each query term's weight: rarer among the candidates counts more; absent from all, nothing. */
function termWeights(
  query: ReadonlySet<string>,
  texts: readonly ReadonlySet<string>[],
): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of query) {
    let df = 0;
    for (const text of texts) if (text.has(term)) df += 1;
    if (df > 0) weights.set(term, Math.log(1 + texts.length / df));
  }
  return weights;
}

function coverage(weights: ReadonlyMap<string, number>, text: ReadonlySet<string>): number {
  let total = 0;
  let held = 0;
  for (const [term, weight] of weights) {
    total += weight;
    if (text.has(term)) held += weight;
  }
  return total > 0 ? held / total : 0;
}

/** Shared terms an item needs, by the number of meaningful terms in the query. */
export function minSharedTerms(queryTerms: number): number {
  return queryTerms >= 4 ? 2 : 1;
}

/**
 * What the floor reads of a candidate: its words, a document's path and
 * heading, and for a raw item its quotes; a derived or approved item
 * stands on Cairn's words, not on the tool output quoted under it.
 */
function candidateText(candidate: PackInput): string {
  const quotes =
    candidate.trustClass === 'raw' ? (candidate.quotes?.map((quote) => quote.text) ?? []) : [];
  const place =
    candidate.provenance.kind === 'document'
      ? [candidate.provenance.id, candidate.provenance.heading ?? '']
      : [candidate.provenance.heading ?? ''];
  return [candidate.text, ...quotes, ...place].join('\n');
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

/**
 * The best score of each plane among the candidates that hold the query's
 * words, for the relative floor: a hit ranked high for a word most
 * candidates hold (and so relevant to nothing) does not set the bar.
 */
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
 * Keeps the candidates relevant to `query` (see the file's comment);
 * the others are excluded as `not-relevant`. `floors` gives the relative
 * score floor of the planes that have one (0 or absent: no floor).
 */
export function relevantCandidates(
  query: string,
  candidates: readonly PackInput[],
  floors: Partial<Record<PackPlane, number>>,
  byMeaning = false,
): RelevanceResult {
  const terms = meaningfulTerms(query);
  // Counted in words: an identifier's parts (`bd-7`: bd, 7) are one word of the request.
  const needed = minSharedTerms(meaningfulWords(query));
  const texts = candidates.map((candidate) => meaningfulTerms(candidateText(candidate)));
  // What the request names is kept whatever its words: its words weigh nothing for the others.
  const weights = termWeights(
    terms,
    texts.filter((_, index) => candidates[index]!.match !== 'named'),
  );
  const covered = texts.map((text) => coverage(weights, text));
  const bestCoverage = new Map<PackPlane, number>();
  for (const [index, candidate] of candidates.entries()) {
    const top = bestCoverage.get(candidate.plane) ?? 0;
    bestCoverage.set(candidate.plane, Math.max(top, covered[index]!));
  }
  const wordsPass = candidates.map((candidate, index) => {
    const ranked = (floors[candidate.plane] ?? 0) > 0 || candidate.trustClass === 'raw';
    const wordsNeeded = byMeaning && ranked ? 0 : needed;
    if (wordsNeeded === 0) return true;
    const text = texts[index]!;
    // Only among a ranker's hits of one kind: a digest and a fix pattern answer in different words.
    const relative = (floors[candidate.plane] ?? 0) > 0 ? RELATIVE_COVERAGE : 0;
    // A long text (a run's whole story) holds a common word or two by chance: one more is needed.
    const extra = text.size > LONG_TEXT_TERMS ? 1 : 0;
    return (
      sharedTerms(terms, text) >= wordsNeeded + extra &&
      covered[index]! >= Math.max(MIN_COVERAGE, relative * (bestCoverage.get(candidate.plane) ?? 0))
    );
  });
  const best = bestScores(candidates, wordsPass);
  const result: RelevanceResult = { kept: [], excluded: [] };
  for (const [index, candidate] of candidates.entries()) {
    if (candidate.match === 'named') {
      result.kept.push(candidate);
      continue;
    }
    // Scores that are not positive (ranks of a fallback) give no floor.
    const top = best.get(candidate.plane) ?? 0;
    const floor = top > 0 ? (floors[candidate.plane] ?? 0) * top : Number.NEGATIVE_INFINITY;
    const relevant = terms.size > 0 && wordsPass[index] && candidate.score >= floor;
    if (relevant) result.kept.push(candidate);
    else result.excluded.push(notRelevant(candidate));
  }
  return result;
}
