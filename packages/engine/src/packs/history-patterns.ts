import { renderFixPattern } from '../history/fix-pattern-render';
import type { FixPattern } from '../history/fix-pattern-types';
import { patternsForSignatures, recentPatterns } from '../history/fix-patterns-api';
import type { HistoryPattern, RecentPatterns } from './history-runs';

/**
 * The history plane's fix patterns from the pattern store (history.db,
 * docs/HISTORY.md#fix-patterns): the best pattern of each signature the
 * recent digests met, then of the signatures this repository met most
 * recently. Both readers open history.db only when it exists and never
 * create it, so a pack never makes one.
 */
export function toHistoryPattern(pattern: FixPattern): HistoryPattern {
  return {
    id: pattern.id,
    signature: pattern.signature,
    normalized: pattern.normalized,
    state: pattern.state,
    // The steps and the command that then succeeded; the first line (the title) the plane writes itself.
    text: renderFixPattern(pattern)
      .slice(1)
      .map((line) => line.trim())
      .join(' '),
    // The store lists patterns without their runs; `cairn history pattern <id>` shows them.
    evidenceRuns: [],
    lastSeenAt: pattern.updatedAt,
  };
}

export const storeRecentPatterns: RecentPatterns = ({ rootDir, signatures, limit }) => {
  const met = patternsForSignatures(rootDir, signatures, limit);
  const seen = new Set(met.map((p) => p.id));
  const recent =
    met.length < limit ? recentPatterns(rootDir, limit).filter((p) => !seen.has(p.id)) : [];
  return [...met, ...recent].slice(0, limit).map(toHistoryPattern);
};
