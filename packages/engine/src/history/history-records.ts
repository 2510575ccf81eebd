import {
  encodeRecordHeader,
  escapeMarkers,
  type MemoryRecordMeta,
  redactSecrets,
} from '@cairn/core';
import { redactRunDigest } from './digest-queries';
import { patternStateLabel, renderFixPattern } from './fix-pattern-render';
import type { FixPatternDetail } from './fix-pattern-types';
import type { HistoryScope } from './history-database';
import { renderRunDigest } from './render-run-digest';
import type { StoredRunDigest } from './run-digest-types';

/**
 * Task history as index records (seed 004 §6.2): each run digest and each
 * fix pattern rendered as one markdown file of the `history` pool, its
 * first line a record header (record kind, trust class, namespace, repo,
 * created_at, run ref) that every index stores beside the chunk text. The
 * body is redacted (it may be sent to a remote index) and Cairn's markers
 * in it are escaped (a prompt quoting a unit marker cannot make a unit).
 */

/** The pool of task-history records (warm). */
export const HISTORY_POOL_ID = 'history';
export const DIGEST_RECORDS = 'history/run-digests';
export const PATTERN_RECORDS = 'history/fix-patterns';

/** A path segment any index keeps as it is: letters, digits, `.`, `_`, `-`, others %-encoded. */
export const pathSegment = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);

/** `history/run-digests/<agent>/<run>.md`: a run id is a session key, unique per agent. */
export const digestRecordPath = (agentId: string, runId: string) =>
  `${DIGEST_RECORDS}/${pathSegment(agentId)}/${pathSegment(runId)}.md`;

/** `history/fix-patterns/<id>.md`. */
export const patternRecordPath = (id: string) => `${PATTERN_RECORDS}/${id}.md`;

function recordFile(meta: MemoryRecordMeta, body: string): string {
  return `${encodeRecordHeader(meta)}\n${escapeMarkers(redactSecrets(body).text).trimEnd()}\n`;
}

/** The run a pattern was learned from (its origin), else its first evidence run. */
function originRun(pattern: FixPatternDetail): string | undefined {
  return (pattern.runs.find((run) => run.role === 'origin') ?? pattern.runs[0])?.sessionKey;
}

/** A fix pattern as a record: verified ones are `approved`, candidates `derived`. */
export function renderPatternRecord(pattern: FixPatternDetail, scope: HistoryScope): string {
  const run = originRun(pattern);
  const meta: MemoryRecordMeta = {
    kind: 'fix_pattern',
    trustClass: pattern.state === 'verified' ? 'approved' : 'derived',
    namespace: scope.namespace,
    repo: scope.repo,
    createdAt: pattern.createdAt,
    ...(run ? { runRef: { kind: 'run', id: run } } : {}),
  };
  const [title = '', ...lines] = renderFixPattern(pattern);
  const evidence = pattern.runs.map(
    (r) =>
      `- run ${r.sessionKey} (${r.agentId}, ${r.role}): ${[r.failureEventId, r.successEventId].filter(Boolean).join(' → ')}`,
  );
  const body = [
    `# Fix pattern ${pattern.id} (${pattern.state})`,
    '',
    title,
    ...lines,
    '',
    `State: ${patternStateLabel(pattern)}; applied ${pattern.applied}, succeeded ${pattern.succeeded}, failed ${pattern.failed}.`,
    ...(evidence.length ? ['', '## Evidence runs', '', ...evidence] : []),
  ];
  return recordFile(meta, body.join('\n'));
}

/** A run digest as a record (`derived`), its run as the run ref. */
export function renderDigestRecord(stored: StoredRunDigest, scope: HistoryScope): string {
  const { digest } = redactRunDigest(stored);
  const meta: MemoryRecordMeta = {
    kind: 'run_digest',
    trustClass: 'derived',
    namespace: scope.namespace,
    repo: scope.repo,
    createdAt: digest.endedAt,
    runRef: { kind: 'run', id: digest.runId },
  };
  return recordFile(meta, renderRunDigest(digest));
}
