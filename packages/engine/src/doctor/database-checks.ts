import { join } from 'node:path';
import { CAIRN_DIR, CAIRN_INDEX_DIR, CAIRN_STATE_DIR, listCairnFolder } from '@cairn/core';
import { openSqlite, sqliteDriverProblem } from '@cairn/sqlite';
import type { DoctorFinding } from './doctor-finding';

/** The databases that hold history Cairn cannot rebuild from the markdown, and what losing them costs. */
const RESTORE =
  'then restore your last backup with `cairn import <archive>` (backups are made with `cairn export`; the import adds what the file lacks)';
const STATE_DATABASES: Record<string, string> = {
  'lineage.db': `it is the source of history: move it aside rather than deleting it (\`mv .cairn/state/lineage.db .cairn/state/lineage.db.damaged\`), ${RESTORE}`,
  'heads.db': `move it aside: the next lifecycle event starts a fresh one (thread states and deferred head writes in it are lost; the thread head files in .cairn/memory/threads/ stay), ${RESTORE}`,
  'history.db': `move it aside: the next failing tool event starts a fresh one (failures and fix patterns in it are lost; the fixes other clones share in .cairn/memory/fixes/ come back), ${RESTORE}`,
};

/** The databases in a folder under `.cairn/`; none when it is a link (doctor's link findings say so). */
function sqliteFiles(rootDir: string, relDir: string): string[] {
  let entries: ReturnType<typeof listCairnFolder>;
  try {
    entries = listCairnFolder(rootDir, relDir);
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && /\.(db|sqlite)$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Runs `PRAGMA quick_check` on an existing file, read-only. Returns the
 * problems found, or the driver's error, or [] for a healthy file. A
 * missing file is never created (fileMustExist).
 */
export function quickCheck(path: string): string[] {
  let db: ReturnType<typeof openSqlite> | undefined;
  try {
    db = openSqlite(path, 'cairn doctor', { readonly: true, fileMustExist: true, timeout: 2000 });
    const rows = db.pragma('quick_check') as Array<Record<string, unknown>>;
    const problems = rows.map((row) => String(Object.values(row)[0]));
    return problems.length === 1 && problems[0] === 'ok' ? [] : problems.slice(0, 5);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    return [typeof code === 'string' ? `${code}: ${message}` : message];
  } finally {
    try {
      db?.close();
    } catch {
      // A failed close of a read-only handle loses nothing.
    }
  }
}

/**
 * No SQLite driver loads (better-sqlite3 missing or mis-built, and no
 * node:sqlite before Node 22.16): search falls back to a plain scan and the
 * lifecycle (heads, lineage) cannot run, so hooks inject nothing.
 */
export function sqliteDriverFinding(): DoctorFinding | undefined {
  const problem = sqliteDriverProblem();
  if (!problem) return undefined;
  return {
    severity: 'error',
    area: 'database',
    message: `no SQLite driver loads on Node ${process.versions.node} (${problem.message.split(' — ')[0]}); hooks inject nothing and search uses a plain keyword scan`,
    fix: problem.hint ?? 'reinstall @cairn/cli',
  };
}

/**
 * SQLite integrity of `.cairn/state/*.db` (history: damage is an error) and
 * `.cairn/index/*.sqlite|db` (derived: damage is a warning, `cairn reindex`
 * rebuilds it). Only files that exist are opened, read-only.
 */
export function databaseFindings(rootDir: string): DoctorFinding[] {
  const driver = sqliteDriverFinding();
  // Without a driver every file would report the same load error.
  if (driver) return [driver];
  const findings: DoctorFinding[] = [];
  const stateDir = `${CAIRN_DIR}/${CAIRN_STATE_DIR}`;
  for (const name of sqliteFiles(rootDir, stateDir)) {
    const problems = quickCheck(join(rootDir, stateDir, name));
    if (problems.length === 0) continue;
    findings.push({
      severity: 'error',
      area: 'database',
      path: `${CAIRN_DIR}/${CAIRN_STATE_DIR}/${name}`,
      message: `the database failed its integrity check (${problems.join('; ')})`,
      fix: STATE_DATABASES[name] ?? `move it aside, ${RESTORE}`,
    });
  }
  const indexDir = `${CAIRN_DIR}/${CAIRN_INDEX_DIR}`;
  for (const name of sqliteFiles(rootDir, indexDir)) {
    const problems = quickCheck(join(rootDir, indexDir, name));
    if (problems.length === 0) continue;
    findings.push({
      severity: 'warning',
      area: 'index',
      path: `${CAIRN_DIR}/${CAIRN_INDEX_DIR}/${name}`,
      message: `the search index failed its integrity check (${problems.join('; ')})`,
      fix: 'run `cairn reindex`: the index is derived from the markdown, nothing is lost',
    });
  }
  return findings;
}
