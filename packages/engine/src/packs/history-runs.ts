import {
  digestGotchaQuotes,
  type FixPattern,
  type FixPatternRun,
  fixPatternSteps,
  patternsForPack,
  renderRunDigestBrief,
  type StoredRunDigest,
  sharedByLine,
} from '../history';
import type { PackInput } from './compose-pack';
import type { EvidenceRun } from './pack-types';

/**
 * The run-digest and fix-pattern part of the history plane (seed 004 §4.2):
 * digests of similar runs, this thread's first, and the fix patterns of
 * the signatures this repository met recently, verified ones first.
 */

/** A fix pattern as the pattern store lists it. */
export interface HistoryPattern {
  id: string;
  signature: string;
  /** The signature's readable key. */
  normalized: string;
  state: 'candidate' | 'verified' | 'deprecated';
  /** The fix: its steps, readable. */
  text: string;
  /** Runs that are evidence for it (session keys), origin first. */
  evidenceRuns: string[];
  /** The same runs with their agent, role and tool events, as the item's provenance carries them. */
  evidence?: EvidenceRun[];
  /** ISO instant it was last met or applied. */
  lastSeenAt?: string;
}

/**
 * The seam to the pattern store: recent patterns of the repository. The
 * default lists none until the store is wired in.
 */
export type RecentPatterns = (request: {
  rootDir: string;
  agentId: string;
  /** Signatures the recent digests met, newest first: the plane ranks their patterns first. */
  signatures: string[];
  limit: number;
  /** The memory namespace to read (`memory.namespace`); default `default`. */
  namespace?: string;
}) => HistoryPattern[];

export const noRecentPatterns: RecentPatterns = () => [];

/** Digests and patterns the pack takes at most. */
const MAX_DIGESTS = 5;
const MAX_PATTERNS = 5;

export const terms = (text: string) =>
  new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? ([] as string[]));

/** Each digest's terms, kept with the digest (stored digests are decoded once and shared). */
const termsOf = new WeakMap<StoredRunDigest, Set<string>>();

function digestTerms(stored: StoredRunDigest): Set<string> {
  let kept = termsOf.get(stored);
  if (!kept) {
    kept = digestTermsOf(stored);
    termsOf.set(stored, kept);
  }
  return kept;
}

function digestTermsOf({ digest }: StoredRunDigest): Set<string> {
  return terms(`${digestWords(digest)}\n${digest.gotchas.map((g) => g.normalized).join('\n')}`);
}

/**
 * A digest's own words, as relevance reads them: its intent, commits,
 * files, decisions and next steps, without the labels its brief adds
 * (`Run …:`, `Outcome: failed (2 error(s) still failing)`, `Gotcha 1: …`),
 * which would match any request about runs, errors or fixes.
 */
function digestWords(digest: StoredRunDigest['digest']): string {
  return [
    digest.intent,
    ...digest.changes.commits.map((c) => c.subject),
    ...(digest.changes.diffstat?.paths ?? digest.changes.editedFiles),
    ...digest.decisions,
    ...digest.nextSteps,
  ].join('\n');
}

/** BM25-like weight of the query terms each digest shares: rarer terms count more. */
function sharedWeights(query: Set<string>, docs: readonly Set<string>[]): number[] {
  const df = new Map<string, number>();
  for (const doc of docs)
    for (const term of query) if (doc.has(term)) df.set(term, (df.get(term) ?? 0) + 1);
  return docs.map((doc) => {
    let weight = 0;
    for (const term of query)
      if (doc.has(term)) weight += Math.log(1 + docs.length / df.get(term)!);
    return weight;
  });
}

/** What naming a run (`runRef`) adds to its digest's score: it is always taken, and ranks high. */
const RUN_REF_WEIGHT = 3;

/**
 * Digests of runs like this one. A digest is taken when it shares query
 * terms, or when it is one of the two latest of this thread; same thread
 * and recency add to the score.
 */
export function digestCandidates(
  digests: readonly StoredRunDigest[],
  query: string,
  threadKey: string | undefined,
  runRef?: string,
): PackInput[] {
  const weights = sharedWeights(terms(query), digests.map(digestTerms));
  const scored = digests.map((stored, rank) => {
    const sameThread = threadKey !== undefined && stored.digest.threadKey === threadKey;
    const thisRun = runRef !== undefined && stored.digest.runId === runRef;
    const recent = 1 / (rank + 1);
    return {
      stored,
      sameThread,
      thisRun,
      shared: weights[rank]! + (thisRun ? RUN_REF_WEIGHT : 0),
      score: weights[rank]! + (sameThread ? 1 : 0) + recent + (thisRun ? RUN_REF_WEIGHT : 0),
    };
  });
  const ownLatest = new Set(
    scored
      .filter((s) => s.sameThread)
      .slice(0, 2)
      .map((s) => s.stored.nodeId),
  );
  return scored
    .filter((s) => s.shared > 0 || ownLatest.has(s.stored.nodeId))
    .sort((a, b) => b.score - a.score || (a.stored.nodeId < b.stored.nodeId ? -1 : 1))
    .slice(0, MAX_DIGESTS)
    .map(({ stored, sameThread, thisRun, score }) => {
      const { digest } = stored;
      const evidence = [
        `node ${stored.nodeId}`,
        ...(digest.evidence.commits.length
          ? [`commits ${digest.evidence.commits.map((c) => c.slice(0, 12)).join(', ')}`]
          : []),
      ].join('; ');
      return {
        id: stored.nodeId,
        plane: 'history' as const,
        text: renderRunDigestBrief(digest),
        matchText: digestWords(digest),
        ...(digest.gotchas.length ? { quotes: digestGotchaQuotes(digest) } : {}),
        source: `run digest (${digest.narrativeSource})`,
        trustClass: 'derived' as const,
        provenance: { kind: 'run' as const, id: digest.runId },
        recency: digest.endedAt,
        score,
        why: `digest of run ${digest.runId} (${digest.outcome})${thisRun ? ', the run this pack is for' : ''}${sameThread ? ', this thread' : `, thread ${digest.threadKey}`}; evidence: ${evidence}`,
        dedupeKey: `run:${digest.runId}`,
        ...(thisRun ? { match: 'named' as const } : {}),
      };
    });
}

/** Signatures met by the digests, newest first, each once. */
export function recentSignatures(digests: readonly StoredRunDigest[]): string[] {
  return [...new Set(digests.flatMap(({ digest }) => digest.gotchas.map((g) => g.signature)))];
}

/**
 * Fix patterns: verified ones are `approved`, candidates `derived` and
 * marked as such in their text; deprecated ones are handed on with their
 * review state, so the trust policy leaves them out.
 */
export function patternCandidates(
  patterns: readonly HistoryPattern[],
  signatures: readonly string[],
  query: string,
): PackInput[] {
  const met = new Map(signatures.map((signature, rank) => [signature, rank]));
  const weights = sharedWeights(
    terms(query),
    patterns.map((p) => terms(`${p.normalized}\n${p.text}`)),
  );
  return patterns
    .map((pattern, index) => {
      const rank = met.get(pattern.signature);
      const score =
        weights[index]! +
        (rank === undefined ? 0 : 2 + 1 / (rank + 1)) +
        (pattern.state === 'verified' ? 1 : 0);
      return { pattern, score, met: rank !== undefined };
    })
    .sort((a, b) => b.score - a.score || (a.pattern.id < b.pattern.id ? -1 : 1))
    .slice(0, MAX_PATTERNS)
    .map(({ pattern, score, met: wasMet }) => {
      const label =
        pattern.state === 'verified' ? 'Verified fix' : 'Candidate fix (not verified yet)';
      return {
        id: `pattern:${pattern.id}`,
        plane: 'history' as const,
        // The error text is tool output: quoted under the item, never in its words.
        text: `${label} for the error quoted below: ${pattern.text}`,
        // Its steps and the failure it fixes are its words; the label is Cairn's (a request about
        // fixing errors is not about this fix).
        matchText: `${pattern.text}\n${pattern.normalized}`,
        quotes: [{ from: `error signature ${pattern.signature}`, text: pattern.normalized }],
        source: `fix pattern (${pattern.state})`,
        trustClass: pattern.state === 'verified' ? ('approved' as const) : ('derived' as const),
        provenance: {
          kind: 'run' as const,
          id: pattern.evidenceRuns[0] ?? pattern.id,
          heading: `pattern ${pattern.id} signature ${pattern.signature}`,
          ...(pattern.evidence?.length ? { evidence: pattern.evidence } : {}),
        },
        ...(pattern.lastSeenAt ? { recency: pattern.lastSeenAt } : {}),
        score,
        why: `${pattern.state} fix pattern of signature ${pattern.signature}${wasMet ? ', met by a recent run' : ''}; evidence runs ${pattern.evidenceRuns.join(', ') || '-'}`,
        ...(pattern.state === 'deprecated' ? { reviewState: 'deprecated' as const } : {}),
        dedupeKey: `pattern:${pattern.id}`,
      };
    });
}

/**
 * The history plane's fix patterns from the pattern store (history.db,
 * docs/HISTORY.md#fix-patterns): the best pattern of each signature the
 * recent digests met, then of the signatures this namespace met most
 * recently, each with its evidence runs. The store opens history.db only
 * when it exists and never creates it, so a pack never makes one.
 */

/** Evidence runs an item carries at most: the origin, then the latest. */
const MAX_EVIDENCE_RUNS = 5;

/** A pattern's evidence runs, origin first, then the newest; one entry per run and role. */
export function evidenceOf(runs: readonly FixPatternRun[]): EvidenceRun[] {
  const origin = runs.filter((run) => run.role === 'origin');
  const later = runs.filter((run) => run.role !== 'origin').reverse();
  return [...origin, ...later].slice(0, MAX_EVIDENCE_RUNS).map((run) => ({
    run: run.sessionKey,
    agent: run.agentId,
    role: run.role,
    events: [run.failureEventId, ...(run.successEventId ? [run.successEventId] : [])],
  }));
}

export function toHistoryPattern(
  pattern: FixPattern & { runs?: readonly FixPatternRun[] },
): HistoryPattern {
  const evidence = evidenceOf(pattern.runs ?? []);
  return {
    id: pattern.id,
    signature: pattern.signature,
    normalized: pattern.normalized,
    state: pattern.state,
    // The steps and the command that then succeeded; the title the plane writes itself.
    text: fixPatternSteps(pattern),
    evidenceRuns: [...new Set(evidence.map((entry) => entry.run))],
    evidence,
    lastSeenAt: pattern.updatedAt,
  };
}

export const storeRecentPatterns: RecentPatterns = ({ rootDir, signatures, limit, namespace }) =>
  patternsForPack(rootDir, signatures, limit, namespace ? { namespace } : {}).map(toHistoryPattern);

/**
 * The fix a failing tool event is answered with (the post-tool profile):
 * the pattern as the history plane shows any, named by the request (the
 * failure it follows), so it is relevant whatever its words. A fix another
 * clone shares says so, and names that clone's file.
 */
export function knownFixCandidate(
  pattern: FixPattern,
  sharedBy: readonly string[] = [],
): PackInput {
  const [candidate] = patternCandidates([toHistoryPattern(pattern)], [pattern.signature], '');
  const shared = sharedByLine(sharedBy);
  return {
    ...candidate!,
    ...(shared ? { text: `${candidate!.text} ${shared}` } : {}),
    match: 'named',
  };
}
