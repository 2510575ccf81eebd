import { existsSync } from 'node:fs';
import {
  listSharedFixesFiles,
  missingAsUndefined,
  readMemoryFile,
  sharedFixesFileName,
} from '@cairn/core';
import type { Database, WorkspaceWriter } from '../store';
import { PATTERN_COLUMNS, type PatternRow, toPattern } from './fix-pattern-store';
import type { FixPattern } from './fix-pattern-types';
import { historyDatabasePath, historyRepo, openHistoryDatabase } from './history-database';
import { projectRelative } from './project-relative';
import { applySharedFixes, readSharedFixes, type SharedImport } from './shared-fixes';
import { renderSharedFixes, type SharedPattern } from './shared-fixes-file';

/**
 * What this clone shares in `.cairn/memory/fixes/<author>.md` (docs/TEAMS.md):
 * its verified patterns with its own evidence, written only when that changed.
 */

type Counts = Pick<FixPattern, 'applied' | 'succeeded' | 'failed'>;

/**
 * What this clone shares: its verified patterns that a run of this clone
 * resolved, with the evidence of this clone only (the counts less what
 * other clones' files gave), and paths relative to the project.
 */
export function ownSharedPatterns(db: Database, rootDir: string): SharedPattern[] {
  const rows = db
    .prepare(
      `SELECT ${PATTERN_COLUMNS} FROM patterns p WHERE state = 'verified' AND EXISTS (
         SELECT 1 FROM pattern_runs r WHERE r.pattern_id = p.id AND r.role IN ('origin', 'succeeded'))`,
    )
    .all() as PatternRow[];
  const others = db.prepare(
    `SELECT coalesce(sum(applied), 0) AS applied, coalesce(sum(succeeded), 0) AS succeeded,
       coalesce(sum(failed), 0) AS failed FROM shared_evidence WHERE pattern_id = ?`,
  );
  const relative = projectRelative(rootDir);
  return rows.map(toPattern).map((pattern) => {
    const given = others.get(pattern.id) as Counts;
    return {
      id: pattern.id,
      namespace: pattern.namespace,
      signature: pattern.signature,
      family: pattern.family,
      normalized: pattern.normalized.slice(0, 1000),
      commandFamily: pattern.commandFamily.slice(0, 200),
      steps: pattern.steps.map((step) => ({
        kind: step.kind,
        key: step.key,
        detail: relative(step.detail).slice(0, 400),
      })),
      applied: Math.max(0, pattern.applied - given.applied),
      succeeded: Math.max(0, pattern.succeeded - given.succeeded),
      failed: Math.max(0, pattern.failed - given.failed),
      learnedAt: pattern.createdAt,
    };
  });
}

/**
 * Writes this clone's `fixes/<author>.md` when what it shares changed (a
 * clone that never verified a pattern writes none). Returns whether it wrote.
 */
export async function writeSharedFixes(
  writer: WorkspaceWriter,
  author: string,
  patterns: readonly SharedPattern[],
): Promise<boolean> {
  const path = sharedFixesFileName(author);
  const current = await readMemoryFile(writer.rootDir, path).catch(missingAsUndefined);
  if (current === undefined && patterns.length === 0) return false;
  const next = renderSharedFixes(author, patterns);
  if (current === next || !writer.writable) return false;
  await writer.writeFile(path, next);
  return true;
}

export interface SharedFixesSync extends SharedImport {
  /** This clone's file, when it was written now. */
  wrote?: string;
}

/**
 * Brings this clone up to date with the shared fix patterns: imports the
 * other clones' files, then (with `write`) writes its own. Creates no
 * database in a project that has no task history and no shared file.
 */
export async function syncSharedFixes(
  rootDir: string,
  writer: WorkspaceWriter,
  author: () => string,
  options: { now: Date; write: boolean },
): Promise<SharedFixesSync> {
  const none: SharedFixesSync = { applied: [], added: 0, refused: [] };
  if (
    !existsSync(historyDatabasePath(rootDir)) &&
    (await listSharedFixesFiles(rootDir)).length === 0
  )
    return none;
  const self = author();
  const files = await readSharedFixes(rootDir, self);
  const db = openHistoryDatabase(rootDir);
  try {
    const report = applySharedFixes(db, files, {
      repo: historyRepo(rootDir),
      at: options.now.toISOString(),
    });
    if (!options.write) return report;
    const wrote = await writeSharedFixes(writer, self, ownSharedPatterns(db, rootDir));
    return { ...report, ...(wrote ? { wrote: `.cairn/memory/${sharedFixesFileName(self)}` } : {}) };
  } finally {
    db.close();
  }
}
