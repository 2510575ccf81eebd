import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertNoLinksUnderCairn,
  CAIRN_DIR,
  CAIRN_STATE_DIR,
  CairnError,
  checkUserPath,
  ensureUserDir,
  type InstallScope,
  userStateDir,
  writeFileAtomic,
} from '@cairn/core';
import { z } from 'zod';

/**
 * Where `cairn install` keeps what it needs to undo itself: never beside the
 * edited file (where `git status` shows it and people commit it) but in
 * Cairn's own state. A project install uses the project's `.cairn/state/`
 * (git-ignored by `cairn init`); a user install has no project and uses
 * `$XDG_STATE_HOME/cairn/` (default `~/.local/state/cairn/`).
 */
export interface InstallLocation {
  scope: InstallScope;
  projectRoot: string;
  homeDir: string;
  env?: Record<string, string | undefined>;
}

export function installStateDir(location: InstallLocation): string {
  if (location.scope === 'project') {
    return join(location.projectRoot, CAIRN_DIR, CAIRN_STATE_DIR, 'install-backups');
  }
  return join(userStateDir(location.env ?? {}, location.homeDir), 'install-backups');
}

/**
 * A user install keeps its records and backups in the user's state folder;
 * they say what uninstall writes back into the harness's settings (its
 * hooks run programs), so that folder must pass the ownership rule (it and
 * every folder above it are the user's or root's, closed to writing by
 * others). Otherwise nothing is read, written or changed: INVALID_CONFIG
 * names the path and the command that fixes it. A dry run creates nothing.
 * A project install's folder is the project's (`.cairn/state/`).
 */
export function checkInstallStateDir(location: InstallLocation & { dryRun?: boolean }): void {
  if (location.scope !== 'user') return;
  const dir = installStateDir(location);
  const problem = location.dryRun ? checkUserPath(dir, { kind: 'directory' }) : ensureUserDir(dir);
  if (!problem || problem.code === 'missing') return;
  throw new CairnError(
    'INVALID_CONFIG',
    `Cannot keep install records in ${dir}: ${problem.path} ${problem.problem}`,
    {
      hint: `run \`${problem.fix}\`, or set XDG_STATE_HOME to a folder of your own; nothing was changed`,
      details: { path: problem.path, problem: problem.code },
    },
  );
}

/**
 * One edited file: its bytes before Cairn's first edit (null: it did not
 * exist) and the bytes Cairn last wrote. Uninstall restores `original`
 * exactly when the file still holds `written`; `original` is absent when it
 * is no longer known (the file changed between two installs).
 */
const recordSchema = z.object({
  path: z.string(),
  original: z.string().nullable().optional(),
  written: z.string(),
});
export type InstallRecord = z.infer<typeof recordSchema>;

/** A record's file; under a project's `.cairn/state/`, checked for links (INVALID_PATH) first. */
function recordPath(dir: string, harness: string, path: string): string {
  const key = createHash('sha256').update(path).digest('hex').slice(0, 16);
  const file = join(dir, harness, `${key}.json`);
  assertNoLinksUnderCairn(file);
  return file;
}

export async function readRecord(
  dir: string,
  harness: string,
  path: string,
): Promise<InstallRecord | undefined> {
  let text: string;
  try {
    text = await readFile(recordPath(dir, harness, path), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const record = recordSchema.parse(JSON.parse(text));
    return record.path === path ? record : undefined;
  } catch {
    // A damaged record only costs the exact restore: uninstall still removes Cairn's entries.
    return undefined;
  }
}

export async function writeRecord(dir: string, harness: string, record: InstallRecord) {
  await writeFileAtomic(
    recordPath(dir, harness, record.path),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}

export async function dropRecord(dir: string, harness: string, path: string): Promise<void> {
  await rm(recordPath(dir, harness, path), { force: true });
}

/** The record after an install wrote `after` over `before`. */
export function nextRecord(
  previous: InstallRecord | undefined,
  path: string,
  before: string | undefined,
  after: string,
): InstallRecord {
  if (!previous) return { path, original: before ?? null, written: after };
  // Cairn's last write is still there: the original is still the one to go back to.
  if (previous.written === before) return { ...previous, written: after };
  return { path, written: after };
}

/** The text uninstall leaves: the original bytes when nothing else changed the file, else `removed`. */
export function restoredText(
  record: InstallRecord | undefined,
  before: string | undefined,
  removed: string | undefined,
): string | undefined {
  if (!record || record.original === undefined || before !== record.written) return removed;
  return record.original ?? undefined;
}
