import {
  CairnError,
  formatError,
  listSharedFixesFiles,
  missingAsUndefined,
  readMemoryFile,
  sha256Hex,
  sharedFixesFileName,
} from '@cairn/core';
import type { Database } from '../store';
import { fixPatternId } from './fix-pattern-learning';
import {
  insertPattern,
  PATTERN_COLUMNS,
  type PatternRow,
  toPattern,
  updatePattern,
} from './fix-pattern-store';
import type { FixPattern } from './fix-pattern-types';
import { stepsIdentity, stepsKeyOf } from './fix-steps';
import { parseSharedFixes, type SharedPattern } from './shared-fixes-file';

/**
 * Fix patterns that travel between clones (docs/TEAMS.md). Each clone
 * writes its verified patterns, with its own evidence, to
 * `.cairn/memory/fixes/<author>.md`, a file no other clone writes, so git
 * merges them without conflict; each clone imports the others' files into
 * its history.db as patterns with that evidence. A file read again adds
 * only what changed since (`shared_evidence` keeps what each file gave).
 */

/** A teammate's file, read: its patterns, or why it was refused. */
export interface SharedFixesFile {
  author: string;
  path: string;
  hash: string;
  patterns?: SharedPattern[];
  refused?: string;
}

export interface SharedImport {
  /** Files applied now (new or changed since the last read). */
  applied: string[];
  /** Patterns they gave that this clone did not know. */
  added: number;
  refused: { path: string; reason: string }[];
}

/** Every other clone's fixes file, read and parsed (a refused one says why; it imports nothing). */
export async function readSharedFixes(rootDir: string, self: string): Promise<SharedFixesFile[]> {
  const out: SharedFixesFile[] = [];
  for (const file of await listSharedFixesFiles(rootDir)) {
    const author = file.path.slice('fixes/'.length, -'.md'.length);
    if (author === self) continue;
    const text = await readMemoryFile(rootDir, file.path).catch(missingAsUndefined);
    if (text === undefined) continue;
    const entry: SharedFixesFile = { author, path: file.path, hash: sha256Hex(text) };
    try {
      entry.patterns = parseSharedFixes(file.path, text, author);
    } catch (error) {
      entry.refused = CairnError.isInstance(error) ? error.message : formatError(error);
    }
    out.push(entry);
  }
  return out;
}

type Counts = Pick<FixPattern, 'applied' | 'succeeded' | 'failed'>;

/** This clone's pattern with the same namespace, signature and steps (key and identity), this repo's first. */
function localMatch(db: Database, shared: SharedPattern, stepsKey: string, repo: string) {
  const identity = stepsIdentity(shared.steps);
  const rows = db
    .prepare(
      `SELECT ${PATTERN_COLUMNS} FROM patterns WHERE namespace = ? AND signature = ? AND steps_key = ?
       ORDER BY repo = ? DESC`,
    )
    .all(shared.namespace, shared.signature, stepsKey, repo) as PatternRow[];
  return rows.map(toPattern).find((pattern) => stepsIdentity(pattern.steps) === identity);
}

/** The pattern a shared one is here: the same namespace, signature and steps, else a new verified one. */
function patternFor(
  db: Database,
  shared: SharedPattern,
  scope: { repo: string; author: string; at: string },
) {
  const stepsKey = stepsKeyOf(shared.steps);
  const known = localMatch(db, shared, stepsKey, scope.repo);
  const reason = `verified in another clone (.cairn/memory/${sharedFixesFileName(scope.author)})`;
  if (known) {
    if (known.state === 'candidate')
      updatePattern(db, known.id, { state: 'verified', reason, at: scope.at });
    return { id: known.id, added: false };
  }
  const key = {
    repo: scope.repo,
    namespace: shared.namespace,
    signature: shared.signature,
    stepsKey,
  };
  const id = fixPatternId(key, stepsIdentity(shared.steps));
  insertPattern(db, {
    id,
    ...key,
    family: shared.family,
    normalized: shared.normalized,
    commandFamily: shared.commandFamily,
    steps: shared.steps.map((step) => ({ ...step, eventId: '' })),
    state: 'verified',
    reason,
    applied: 0,
    succeeded: 0,
    failed: 0,
    failureEventId: `shared:${scope.author}`,
    successEventId: `shared:${scope.author}`,
    createdAt: shared.learnedAt,
    updatedAt: scope.at,
  });
  return { id, added: true };
}

/** Sets what one clone's file gives a pattern: its counts move by the difference. */
function setEvidence(
  db: Database,
  entry: { patternId: string; author: string; sourceId: string },
  counts: Counts,
  at: string,
) {
  const before = db
    .prepare(
      'SELECT applied, succeeded, failed FROM shared_evidence WHERE pattern_id = ? AND author = ?',
    )
    .get(entry.patternId, entry.author) as Counts | undefined;
  const was = before ?? { applied: 0, succeeded: 0, failed: 0 };
  const delta = {
    applied: counts.applied - was.applied,
    succeeded: counts.succeeded - was.succeeded,
    failed: counts.failed - was.failed,
  };
  if (delta.applied || delta.succeeded || delta.failed)
    updatePattern(db, entry.patternId, { ...delta, at });
  db.prepare(
    `INSERT INTO shared_evidence (pattern_id, author, source_id, applied, succeeded, failed) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (pattern_id, author) DO UPDATE SET source_id = excluded.source_id, applied = excluded.applied,
       succeeded = excluded.succeeded, failed = excluded.failed`,
  ).run(
    entry.patternId,
    entry.author,
    entry.sourceId,
    counts.applied,
    counts.succeeded,
    counts.failed,
  );
}

/**
 * Takes back what a clone's file gave the patterns it no longer lists (all
 * of them when `keep` is empty). A pattern known only from shared files,
 * that no file lists any more, is deprecated: nothing here vouches for it.
 */
function withdraw(db: Database, author: string, keep: ReadonlySet<string>, at: string) {
  const rows = db
    .prepare('SELECT pattern_id AS id FROM shared_evidence WHERE author = ?')
    .all(author) as { id: string }[];
  for (const { id } of rows) {
    if (keep.has(id)) continue;
    setEvidence(
      db,
      { patternId: id, author, sourceId: '' },
      { applied: 0, succeeded: 0, failed: 0 },
      at,
    );
    db.prepare('DELETE FROM shared_evidence WHERE pattern_id = ? AND author = ?').run(id, author);
    const vouched = db
      .prepare(
        `SELECT (SELECT count(*) FROM shared_evidence WHERE pattern_id = ?)
              + (SELECT count(*) FROM pattern_runs WHERE pattern_id = ?) AS n`,
      )
      .get(id, id) as { n: number };
    if (vouched.n === 0)
      updatePattern(db, id, { state: 'deprecated', reason: 'no clone shares it any more', at });
  }
}

/**
 * Applies the other clones' files to history.db in one transaction: a
 * file whose hash is the one applied last is skipped, so reading the same
 * files twice changes nothing; a file that is gone takes its evidence back.
 */
export function applySharedFixes(
  db: Database,
  files: readonly SharedFixesFile[],
  scope: { repo: string; at: string },
): SharedImport {
  const report: SharedImport = { applied: [], added: 0, refused: [] };
  const stored = new Map(
    (
      db.prepare('SELECT author, hash FROM shared_files').all() as {
        author: string;
        hash: string;
      }[]
    ).map((row) => [row.author, row.hash]),
  );
  db.transaction(() => {
    for (const file of files) {
      if (file.refused || !file.patterns) {
        report.refused.push({ path: file.path, reason: file.refused ?? 'unreadable' });
        continue;
      }
      if (stored.get(file.author) === file.hash) continue;
      const kept = new Set<string>();
      for (const shared of file.patterns) {
        const { id, added } = patternFor(db, shared, { ...scope, author: file.author });
        if (added) report.added += 1;
        kept.add(id);
        setEvidence(
          db,
          { patternId: id, author: file.author, sourceId: shared.id },
          shared,
          scope.at,
        );
      }
      withdraw(db, file.author, kept, scope.at);
      db.prepare(
        `INSERT INTO shared_files (author, hash, imported_at) VALUES (?, ?, ?)
         ON CONFLICT (author) DO UPDATE SET hash = excluded.hash, imported_at = excluded.imported_at`,
      ).run(file.author, file.hash, scope.at);
      report.applied.push(file.path);
    }
    const present = new Set(files.map((file) => file.author));
    for (const author of stored.keys()) {
      if (present.has(author)) continue;
      withdraw(db, author, new Set(), scope.at);
      db.prepare('DELETE FROM shared_files WHERE author = ?').run(author);
    }
  }).immediate();
  return report;
}

/** The clones that share a pattern here, by author. */
export function sharedAuthorsOf(db: Database, patternId: string): string[] {
  return db
    .prepare('SELECT author FROM shared_evidence WHERE pattern_id = ? ORDER BY author')
    .pluck()
    .all(patternId) as string[];
}
