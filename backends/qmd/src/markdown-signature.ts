import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { compareCodeUnits, isUnsafePathError, listMemoryFiles } from '@cairn/core';

/** A file as the signature sees it: its name, size and modification time. */
export interface MarkdownFile {
  /** Relative to the folder, `/`-separated. */
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** Same cap as the file backend: a runaway folder cannot stall a search. */
const MAX_FILES = 5000;

function digest(files: MarkdownFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.path}\0${file.bytes}\0${file.mtimeMs}\n`);
  return hash.digest('hex');
}

/**
 * The canonical workspace files (core's name rules) and a signature of
 * their state. A link under `.cairn/` throws INVALID_PATH: qmd is never
 * pointed at a folder reached through one.
 */
export async function workspaceFiles(rootDir: string): Promise<MarkdownFile[]> {
  return listMemoryFiles(rootDir).catch((error: unknown) => {
    if (isUnsafePathError(error)) throw error;
    return [];
  });
}

/**
 * Every `*.md` under a pool folder that qmd's `**\/*.md` mask also sees
 * (hidden entries skipped), sorted by path.
 */
export async function folderMarkdownFiles(folder: string): Promise<MarkdownFile[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const files: MarkdownFile[] = [];
  for (const entry of entries) {
    if (files.length >= MAX_FILES) break;
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const path = relative(folder, join(entry.parentPath, entry.name)).split('\\').join('/');
    if (path.split('/').some((part) => part.startsWith('.'))) continue;
    const info = await stat(join(folder, path)).catch(() => undefined);
    if (info) files.push({ path, bytes: info.size, mtimeMs: info.mtimeMs });
  }
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

export async function workspaceSignature(rootDir: string): Promise<string> {
  return digest(await workspaceFiles(rootDir));
}

export async function folderSignature(folder: string): Promise<string> {
  return digest(await folderMarkdownFiles(folder));
}
