import {
  type FixPattern,
  type FixPatternRun,
  fixPatternSteps,
  patternsForPack,
  sharedByLine,
} from '../history';
import type { PackInput } from './compose-pack';
import { type HistoryPattern, patternCandidates, type RecentPatterns } from './history-runs';
import type { EvidenceRun } from './pack-types';

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
