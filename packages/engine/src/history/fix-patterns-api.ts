import { existsSync } from 'node:fs';
import {
  CairnError,
  FIX_PATTERN_ID_KIND,
  idPrefixOf,
  idPrefixRange,
  isWholeId,
  resolveIdPrefix,
} from '@cairn/core';
import type { Database } from '../store';
import { rankPatterns } from './fix-pattern-learning';
import { livePatternsOf, patternRunsOf, recentSignatures } from './fix-pattern-queries';
import {
  getPatternRow,
  listPatternRows,
  patternDetail,
  sessionFailures,
  updatePattern,
} from './fix-pattern-store';
import {
  FIX_PATTERN_STATES,
  type FixPattern,
  type FixPatternDetail,
  type FixPatternState,
} from './fix-pattern-types';
import {
  historyDatabasePath,
  namespaceOf,
  openHistoryDatabase,
  withDatabase,
} from './history-database';
import { isLowInformation } from './signature-information';

/**
 * Fix patterns for people, the MCP tools and the pack's history plane.
 * Readers never create history.db (no database: no patterns); approve and
 * deprecate change one pattern or fail with a typed error and change nothing.
 * Every function keeps to one namespace (`memory.namespace`, default
 * `default`): a pattern of another namespace is not listed and is NOT_FOUND.
 */

/** The namespace a caller reads and judges patterns in. */
export interface NamespaceOption {
  namespace?: string;
}

const MAX_MATCHES = 11;

/**
 * The whole pattern id `input` names: a whole id as it is, or a unique
 * start of one (`FIX-1a2b`, `1a2b3c`) among the namespace's patterns.
 * INVALID_INPUT when it is neither, NOT_FOUND or CONFLICT as the resolver
 * says; nothing is created (no history.db: no pattern).
 */
function resolvePatternId(rootDir: string, input: string, namespace: string): string {
  if (isWholeId(input, FIX_PATTERN_ID_KIND)) return input;
  const prefix = idPrefixOf(input, FIX_PATTERN_ID_KIND);
  if (!prefix) {
    throw new CairnError(
      'INVALID_INPUT',
      `"${String(input).slice(0, 80)}" is not a fix pattern id`,
      {
        hint: 'a fix pattern id looks like FIX-1a2b3c4d5e6f, or its first 4+ characters (`cairn history patterns` lists them); nothing was changed',
      },
    );
  }
  const [low, high] = idPrefixRange(prefix);
  const ids = withDatabase(rootDir, [] as string[], (db) =>
    (
      db
        .prepare('SELECT id FROM patterns WHERE id >= ? AND id < ? AND namespace = ? LIMIT ?')
        .all(low, high, namespace, MAX_MATCHES) as { id: string }[]
    ).map((row) => row.id),
  );
  return resolveIdPrefix(input, FIX_PATTERN_ID_KIND, ids);
}

function notFound(id: string): CairnError {
  return new CairnError('NOT_FOUND', `No fix pattern ${id} in this project`, {
    hint: '`cairn history patterns` lists the fix patterns; nothing was changed',
    details: { id },
  });
}

export function checkFixPatternState(state: string): FixPatternState {
  if (!(FIX_PATTERN_STATES as readonly string[]).includes(state)) {
    throw new CairnError('INVALID_INPUT', `Unknown fix pattern state "${state.slice(0, 40)}"`, {
      hint: `use one of ${FIX_PATTERN_STATES.join(', ')}`,
    });
  }
  return state as FixPatternState;
}

/** The project's fix patterns, best first (verified, candidate, deprecated), optionally of one state. */
export function listFixPatterns(
  rootDir: string,
  options: { state?: FixPatternState; limit?: number } & NamespaceOption = {},
): FixPattern[] {
  const limit = Math.max(1, Math.min(options.limit ?? 100, 1000));
  const namespace = namespaceOf(options);
  return withDatabase(rootDir, [], (db) =>
    listPatternRows(db, { ...(options.state ? { state: options.state } : {}), namespace, limit }),
  );
}

/** One pattern with its evidence runs; NOT_FOUND when the namespace has none by that id. */
export function getFixPattern(
  rootDir: string,
  id: string,
  options: NamespaceOption = {},
): FixPatternDetail {
  const namespace = namespaceOf(options);
  const whole = resolvePatternId(rootDir, id, namespace);
  const detail = withDatabase(rootDir, undefined, (db) => patternDetail(db, whole, namespace));
  if (!detail) throw notFound(whole);
  return detail;
}

function setState(
  rootDir: string,
  input: string,
  change: { state: FixPatternState; reason: string | undefined; now: Date; namespace: string },
): FixPatternDetail {
  const { state, reason, now, namespace } = change;
  const id = resolvePatternId(rootDir, input, namespace);
  // No history.db: no pattern, and nothing is created.
  if (!existsSync(historyDatabasePath(rootDir))) throw notFound(id);
  const db = openHistoryDatabase(rootDir);
  try {
    const detail = db
      .transaction(() => {
        if (!getPatternRow(db, id, namespace)) return undefined;
        updatePattern(db, id, { state, reason: reason?.trim() || null, at: now.toISOString() });
        return patternDetail(db, id, namespace);
      })
      .immediate();
    if (!detail) throw notFound(id);
    return detail;
  } finally {
    db.close();
  }
}

/** A person approved the pattern: verified, whatever its counts. */
export function approveFixPattern(
  rootDir: string,
  id: string,
  options: { reason?: string; now?: Date } & NamespaceOption = {},
): FixPatternDetail {
  return setState(rootDir, id, {
    state: 'verified',
    reason: options.reason ?? 'approved by a person',
    now: options.now ?? new Date(),
    namespace: namespaceOf(options),
  });
}

/** A person rejected the pattern, or it stopped working: deprecated, never shown again. */
export function deprecateFixPattern(
  rootDir: string,
  id: string,
  options: { reason?: string; now?: Date } & NamespaceOption = {},
): FixPatternDetail {
  return setState(rootDir, id, {
    state: 'deprecated',
    reason: options.reason ?? 'rejected by a person',
    now: options.now ?? new Date(),
    namespace: namespaceOf(options),
  });
}

/**
 * Undoes a person's approval or rejection: the pattern is a candidate
 * again, judged by its counts as before.
 */
export function reopenFixPattern(
  rootDir: string,
  id: string,
  options: { reason?: string; now?: Date } & NamespaceOption = {},
): FixPatternDetail {
  return setState(rootDir, id, {
    state: 'candidate',
    reason: options.reason ?? 'reopened by a person',
    now: options.now ?? new Date(),
    namespace: namespaceOf(options),
  });
}

/**
 * The best pattern (verified first, never deprecated, never of a
 * low-information signature) of each signature, in the signatures' order,
 * one per repository holding one, at most `limit`.
 */
function bestPerSignature(
  db: Database,
  signatures: readonly string[],
  limit: number,
  namespace: string,
) {
  const bySignature = new Map<string, Map<string, FixPattern[]>>();
  for (const pattern of livePatternsOf(db, namespace, signatures)) {
    // A low-information signature's pattern is kept but never shown (docs/HISTORY.md).
    if (isLowInformation(pattern)) continue;
    const byRepo = bySignature.get(pattern.signature) ?? new Map<string, FixPattern[]>();
    byRepo.set(pattern.repo, [...(byRepo.get(pattern.repo) ?? []), pattern]);
    bySignature.set(pattern.signature, byRepo);
  }
  const out: FixPattern[] = [];
  for (const signature of signatures) {
    const byRepo = bySignature.get(signature);
    for (const repo of [...(byRepo?.keys() ?? [])].sort()) {
      out.push(rankPatterns(byRepo!.get(repo)!)[0]!);
    }
    if (out.length >= limit) break;
  }
  return out.slice(0, limit);
}

/**
 * The best pattern (verified before candidate, never deprecated) of each
 * signature this repository met most recently, newest first: what the
 * pack's history plane shows at session start and prompt time.
 */
export function recentPatterns(
  rootDir: string,
  limit = 5,
  options: NamespaceOption = {},
): FixPattern[] {
  const namespace = namespaceOf(options);
  return withDatabase(rootDir, [], (db) =>
    bestPerSignature(db, recentSignatures(db, { namespace, limit: limit * 4 }), limit, namespace),
  );
}

/** The best pattern (never deprecated) of each of these signatures, in their order. */
export function patternsForSignatures(
  rootDir: string,
  signatures: readonly string[],
  limit = 5,
  options: NamespaceOption = {},
): FixPattern[] {
  if (signatures.length === 0) return [];
  const namespace = namespaceOf(options);
  return withDatabase(rootDir, [], (db) =>
    bestPerSignature(db, [...new Set(signatures)], limit, namespace),
  );
}

/**
 * What the pack's history plane shows, in one read of history.db: the best
 * pattern of each signature the recent digests met, then of the signatures
 * the namespace met most recently, each with its evidence runs.
 */
export function patternsForPack(
  rootDir: string,
  signatures: readonly string[],
  limit: number,
  options: NamespaceOption = {},
): FixPatternDetail[] {
  const namespace = namespaceOf(options);
  return withDatabase(rootDir, [], (db) => {
    const met = bestPerSignature(db, [...new Set(signatures)], limit, namespace);
    const seen = new Set(met.map((p) => p.id));
    const recent =
      met.length < limit
        ? bestPerSignature(
            db,
            recentSignatures(db, { namespace, limit: limit * 4 }),
            limit,
            namespace,
          )
        : [];
    const chosen = [...met, ...recent.filter((p) => !seen.has(p.id))].slice(0, limit);
    const runs = patternRunsOf(
      db,
      chosen.map((pattern) => pattern.id),
    );
    return chosen.map((pattern) => ({ ...pattern, runs: runs.get(pattern.id) ?? [] }));
  });
}

/**
 * The best pattern of each signature this session met, its open failures
 * first: for harnesses that cannot inject after a tool (the next prompt
 * carries it).
 */
export function patternsForSession(
  rootDir: string,
  agentId: string,
  sessionKey: string,
  limit = 3,
  options: NamespaceOption = {},
): FixPattern[] {
  const namespace = namespaceOf(options);
  return withDatabase(rootDir, [], (db) => {
    const failures = sessionFailures(db, agentId, sessionKey).reverse();
    const ordered = [
      ...failures.filter((f) => f.status === 'open'),
      ...failures.filter((f) => f.status !== 'open'),
    ].map((f) => f.signature);
    return bestPerSignature(db, [...new Set(ordered)], limit, namespace);
  });
}
