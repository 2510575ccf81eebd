import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import {
  assertNoLinks,
  cairnStatePath,
  decodeExactText,
  MEMORY_WORKSPACE_PATH,
  makeDirectory,
  resolveWorkspaceFile,
  writeFileAtomic,
} from '@cairn/core';
import { openDatabase, type WorkspaceWriter } from '../store';
import { ARCHIVE_DATABASES } from './archive-records';
import { DATABASE_FILES, migrateTo } from './archive-tables';
import { type IdMaps, mergeDatabase, type TableMerge } from './merge-database';
import { stageArchive } from './read-archive';

export interface ImportResult {
  archive: string;
  /** When the archive was written. */
  createdAt: string;
  files: {
    /** Restored: the project did not have them. */
    written: string[];
    /** The project has them with the same bytes. */
    unchanged: string[];
    /** The project has them with other bytes: its own are kept (see docs/TEAMS.md). */
    kept: string[];
  };
  /** Per `<db>.<table>`: rows inserted, and rows the project had already. */
  rows: Record<string, TableMerge>;
}

const workspacePath = (path: string) =>
  path.startsWith(`${MEMORY_WORKSPACE_PATH}/`)
    ? path.slice(MEMORY_WORKSPACE_PATH.length + 1)
    : undefined;

/** The project's bytes of an archived file, or undefined when it has none (links refused on the way). */
async function currentBytes(rootDir: string, path: string): Promise<Buffer | undefined> {
  const relative = workspacePath(path);
  const absolute = relative ? await resolveWorkspaceFile(rootDir, relative) : join(rootDir, path);
  if (!relative) assertNoLinks(rootDir, path);
  return fsp.readFile(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

async function writeProjectFile(
  rootDir: string,
  writer: WorkspaceWriter,
  path: string,
  data: Buffer,
) {
  const relative = workspacePath(path);
  // Bytes as they were, whatever their encoding (exact text round-trips them).
  if (relative) return writer.writeFile(relative, decodeExactText(data));
  assertNoLinks(rootDir, path);
  await makeDirectory(join(rootDir, '.cairn'));
  await writeFileAtomic(join(rootDir, path), data);
}

/**
 * `cairn import <file>`: restores an archive `cairn export` wrote into this
 * project, empty or not. The archive is read and checked whole first
 * (stageArchive): a damaged one is refused and nothing changes. Then each
 * state database is merged in one transaction (rows the project has are
 * skipped, so importing twice is importing once), and each file the
 * project does not have is written; a file it has with other bytes is
 * kept and reported (the committed markdown is git's to merge).
 */
export async function importProject(
  rootDir: string,
  archive: string,
  writer: WorkspaceWriter,
): Promise<ImportResult> {
  const staged = await stageArchive(archive);
  try {
    const result: ImportResult = {
      archive,
      createdAt: staged.header.createdAt,
      files: { written: [], unchanged: [], kept: [] },
      rows: {},
    };
    const plan: { path: string; data: Buffer }[] = [];
    for (const file of staged.files) {
      const current = await currentBytes(rootDir, file.path);
      if (current === undefined) plan.push(file);
      else (current.equals(file.data) ? result.files.unchanged : result.files.kept).push(file.path);
    }
    if (plan.some((file) => workspacePath(file.path))) writer.assertWritable('import an archive');
    const maps: IdMaps = new Map();
    for (const name of ARCHIVE_DATABASES) {
      const source = staged.databases.get(name);
      if (!source) continue;
      const target = openDatabase(join(cairnStatePath(rootDir), DATABASE_FILES[name]));
      try {
        migrateTo(name, target);
        Object.assign(result.rows, mergeDatabase(name, source, target, maps));
      } finally {
        target.close();
      }
    }
    for (const file of plan) {
      await writeProjectFile(rootDir, writer, file.path, file.data);
      result.files.written.push(file.path);
    }
    return result;
  } finally {
    await staged.close();
  }
}
