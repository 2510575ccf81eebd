import { existsSync, statSync } from 'node:fs';
import { CairnError } from '@cairn/core';
import type { Database } from '../working/sqlite';
import { rankPatterns } from './fix-pattern-learning';
import {
  getPatternRow,
  listPatternRows,
  patternDetail,
  patternRuns,
  patternsFor,
  recentSignatures,
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
  openHistoryDatabase,
  openHistoryDatabaseIfAny,
} from './history-database';
import { namespaceOf } from './history-scope';

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

const PATTERN_ID = /^FIX-[0-9a-f]{12}$/;

/** How long a read keeps history.db open for the reads that follow it (the next prompt's, in a server). */
const READER_IDLE_MS = 10_000;

interface Reader {
  db: Database;
  /** The file it opened: a history.db replaced or removed since is opened anew, or read as none. */
  ino: number;
  timer?: NodeJS.Timeout;
}

const readers = new Map<string, Reader>();

function dropReader(rootDir: string): void {
  const reader = readers.get(rootDir);
  readers.delete(rootDir);
  clearTimeout(reader?.timer);
  reader?.db.close();
}

/**
 * Reads history.db through a connection kept for a few seconds: the pack's
 * history plane reads it at every prompt and session start, and opening
 * (link checks, WAL, the migration check) costs more than its reads.
 */
function withDatabase<T>(rootDir: string, empty: T, read: (db: Database) => T): T {
  const ino = statSync(historyDatabasePath(rootDir), { throwIfNoEntry: false })?.ino;
  let reader = readers.get(rootDir);
  if (reader && (reader.ino !== ino || !reader.db.open)) {
    dropReader(rootDir);
    reader = undefined;
  }
  if (ino === undefined) return empty;
  if (!reader) {
    const db = openHistoryDatabaseIfAny(rootDir);
    if (!db) return empty;
    reader = { db, ino };
    readers.set(rootDir, reader);
  }
  clearTimeout(reader.timer);
  reader.timer = setTimeout(() => dropReader(rootDir), READER_IDLE_MS);
  reader.timer.unref();
  return read(reader.db);
}

function checkId(id: string): string {
  if (typeof id !== 'string' || !PATTERN_ID.test(id)) {
    throw new CairnError('INVALID_INPUT', `"${String(id).slice(0, 80)}" is not a fix pattern id`, {
      hint: 'a fix pattern id looks like FIX-1a2b3c4d5e6f (`cairn history patterns` lists them); nothing was changed',
    });
  }
  return id;
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
  checkId(id);
  const namespace = namespaceOf(options);
  const detail = withDatabase(rootDir, undefined, (db) => patternDetail(db, id, namespace));
  if (!detail) throw notFound(id);
  return detail;
}

function setState(
  rootDir: string,
  id: string,
  change: { state: FixPatternState; reason: string | undefined; now: Date; namespace: string },
): FixPatternDetail {
  const { state, reason, now, namespace } = change;
  checkId(id);
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

function bestPerSignature(
  db: Database,
  signatures: readonly string[],
  limit: number,
  namespace: string,
) {
  const out: FixPattern[] = [];
  for (const signature of signatures) {
    const rows = db
      .prepare(
        'SELECT DISTINCT repo, namespace FROM patterns WHERE signature = ? AND namespace = ?',
      )
      .all(signature, namespace) as { repo: string; namespace: string }[];
    for (const scope of rows) {
      const best = rankPatterns(
        patternsFor(db, { ...scope, signature }).filter((p) => p.state !== 'deprecated'),
      )[0];
      if (best) out.push(best);
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
    return [...met, ...recent.filter((p) => !seen.has(p.id))]
      .slice(0, limit)
      .map((pattern) => ({ ...pattern, runs: patternRuns(db, pattern.id) }));
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
