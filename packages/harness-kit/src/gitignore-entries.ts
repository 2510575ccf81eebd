import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeExactText } from '@cairn/core';
import type { PlannedFile } from './install-files';

/**
 * The project's `.gitignore` with some paths ignored: files a harness keeps
 * per user (Claude Code's `.claude/settings.local.json`) that an install
 * creates or edits and that must not be committed. A missing path is
 * appended as an anchored line (`/.claude/settings.local.json`) after one
 * comment line; a path already listed (with or without the leading `/`)
 * changes nothing; every other byte of the file is kept as it was, in any
 * encoding and with its line ends.
 */
export const GITIGNORE_COMMENT = '# Per-user harness settings (added by `cairn install`)';

/** The file's text, decoded so that bytes that are not UTF-8 are written back as they were. */
async function readExact(path: string): Promise<string | undefined> {
  try {
    return decodeExactText(await readFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** `text` with the `paths` (relative to the root, `/` separators) it does not list appended. */
export function withIgnoredPaths(text: string | undefined, paths: string[]): string | undefined {
  const current = text ?? '';
  const listed = new Set(current.split(/\r?\n/).map((line) => line.trim().replace(/^\//, '')));
  const missing = paths.filter((path) => !listed.has(path));
  if (missing.length === 0) return text;
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const separator = current === '' || current.endsWith('\n') ? '' : eol;
  const lines = [GITIGNORE_COMMENT, ...missing.map((path) => `/${path}`)];
  return `${current}${separator}${lines.join(eol)}${eol}`;
}

/** The planned edit of `<projectRoot>/.gitignore` that ignores `paths`. */
export async function planGitignoreEntries(
  projectRoot: string,
  paths: string[],
): Promise<PlannedFile> {
  const path = join(projectRoot, '.gitignore');
  const before = await readExact(path);
  return { path, before, after: withIgnoredPaths(before, paths) };
}
