import { mkdir, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '@cairn/core';
import { z } from 'zod';
import type { InstallLocation } from './install-ledger';

/**
 * The folders an install created to hold its files (`.claude/`, `.codex/`,
 * `.opencode/plugin/` ...), listed per harness in Cairn's install state so
 * that uninstall removes those it leaves empty, and never a folder that was
 * there before the install or still holds anything. A folder inside the
 * project is listed relative to it, so the list survives a move.
 */
const ledgerSchema = z.object({ folders: z.array(z.string()) });

function ledgerPath(stateDir: string, harness: string): string {
  return join(stateDir, harness, 'created-folders.json');
}

/** Where relative entries are anchored: the project for a project install, else the home. */
function baseOf(location: InstallLocation): string {
  return resolve(location.scope === 'project' ? location.projectRoot : location.homeDir);
}

function stored(base: string, folder: string): string {
  const rel = relative(base, folder);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : folder;
}

async function readLedger(stateDir: string, harness: string): Promise<string[]> {
  try {
    const text = await readFile(ledgerPath(stateDir, harness), 'utf8');
    return ledgerSchema.parse(JSON.parse(text)).folders;
  } catch {
    // Missing or damaged: no folder is known to be Cairn's, so none is removed.
    return [];
  }
}

async function writeLedger(stateDir: string, harness: string, folders: string[]): Promise<void> {
  const path = ledgerPath(stateDir, harness);
  if (folders.length === 0) {
    await rm(path, { force: true });
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify({ folders: [...new Set(folders)] }, null, 2)}\n`);
}

/** Creates `dir` with its missing parents; returns the folders this call created, deepest last. */
export async function makeFolder(dir: string): Promise<string[]> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return [];
  const created: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    created.unshift(current);
    if (current === first || dirname(current) === current) break;
  }
  return created;
}

/** Adds folders an install created to the harness's list. */
export async function recordCreatedFolders(
  stateDir: string,
  harness: string,
  location: InstallLocation,
  folders: string[],
): Promise<void> {
  const base = baseOf(location);
  // Never the project or the home itself, nor a folder above them.
  const kept = [resolve(location.projectRoot), resolve(location.homeDir)];
  const listed = folders.filter((dir) =>
    kept.every((root) => {
      const rel = relative(dir, root);
      return rel.startsWith('..') || isAbsolute(rel);
    }),
  );
  if (listed.length === 0) return;
  const known = await readLedger(stateDir, harness);
  await writeLedger(stateDir, harness, [...known, ...listed.map((dir) => stored(base, dir))]);
}

async function entries(dir: string): Promise<string[] | undefined> {
  try {
    return (await readdir(dir)).map((name) => join(dir, name));
  } catch {
    return undefined;
  }
}

/** The listed folders, absolute, deepest first (a child before its parent). */
async function listedFolders(
  stateDir: string,
  harness: string,
  location: InstallLocation,
): Promise<string[]> {
  const base = baseOf(location);
  const folders = (await readLedger(stateDir, harness)).map((dir) => resolve(base, dir));
  return [...new Set(folders)].sort((a, b) => b.split(sep).length - a.split(sep).length);
}

/**
 * The listed folders an uninstall leaves empty once `deleted` files are
 * gone: what a dry run reports, and what `removeCreatedFolders` removes.
 */
export async function foldersLeftEmpty(
  stateDir: string,
  harness: string,
  location: InstallLocation,
  deleted: string[],
): Promise<string[]> {
  const gone = new Set(deleted.map((path) => resolve(path)));
  const empty: string[] = [];
  for (const folder of await listedFolders(stateDir, harness, location)) {
    const inside = await entries(folder);
    if (inside === undefined) continue;
    if (inside.every((path) => gone.has(path))) {
      empty.push(folder);
      gone.add(folder);
    }
  }
  return empty;
}

/**
 * Removes the listed folders that are empty (deepest first, never
 * recursively: a folder that holds anything stays); the list keeps the
 * folders that remain. Returns the folders removed.
 */
export async function removeCreatedFolders(
  stateDir: string,
  harness: string,
  location: InstallLocation,
): Promise<string[]> {
  const removed: string[] = [];
  const remaining: string[] = [];
  const base = baseOf(location);
  for (const folder of await listedFolders(stateDir, harness, location)) {
    try {
      await rmdir(folder);
      removed.push(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') remaining.push(stored(base, folder));
    }
  }
  await writeLedger(stateDir, harness, remaining);
  return removed;
}
