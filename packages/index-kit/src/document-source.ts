import {
  type Dirent,
  promises as fsp,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { isAbsolute, join, relative } from 'node:path';
import { compareCodeUnits, type PoolSource, type SourceFile } from '@cairn/core';
import type { PathMatcher } from './compile-glob';
import { documentSectionChunks } from './document-sections';
import { gitignoreMatcher, globBase, globDepth, globMatcher } from './path-globs';
import { MAX_FILES_PER_FOLDER } from './pool-definitions';

/** The pool id of the project's documents. */
export const DOCUMENTS_POOL_ID = 'documents';

export interface DocumentSourceOptions {
  /** Globs relative to the root (`README*`, `docs/**`, `adr/`). */
  globs: readonly string[];
  /** A larger file is left out. */
  maxFileBytes: number;
  /** Bytes listed at most, in path order; the files past the cap are left out. */
  maxTotalBytes: number;
}

/** Text a document may be: markdown and plain-text formats, or a bare `README`. */
const DOCUMENT_NAME = /(\.(md|mdx|markdown|txt|rst|adoc)|^README)$/i;
/** Never walked, whatever .gitignore says. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.cairn']);

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

function realRootOf(rootDir: string): string {
  try {
    return realpathSync(rootDir);
  } catch {
    return rootDir;
  }
}

function readGitignore(rootDir: string): (path: string, isDirectory: boolean) => boolean {
  try {
    return gitignoreMatcher(readFileSync(join(rootDir, '.gitignore'), 'utf8'));
  } catch {
    return () => false;
  }
}

/** A file's stat, following a link only when it stays inside the root; undefined when refused. */
function statInside(path: string, realRoot: string) {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info?.isSymbolicLink()) return info;
  try {
    if (!inside(realRoot, realpathSync(path))) return undefined;
    const target = statSync(path);
    return target.isFile() ? target : undefined;
  } catch {
    return undefined;
  }
}

interface Walk {
  rootDir: string;
  realRoot: string;
  ignored: (path: string, isDirectory: boolean) => boolean;
  matchers: PathMatcher[];
  found: Map<string, SourceFile>;
}

function walkFolder(walk: Walk, folder: string, depthLeft: number): void {
  if (depthLeft <= 0 || walk.found.size >= MAX_FILES_PER_FOLDER) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(join(walk.rootDir, ...folder.split('/').filter(Boolean)), {
      withFileTypes: true,
    });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
    const rel = folder ? `${folder}/${entry.name}` : entry.name;
    // Folders are walked only when they are real: a link to a folder may loop or leave the root.
    if (entry.isDirectory()) {
      if (!walk.ignored(rel, true)) walkFolder(walk, rel, depthLeft - 1);
      continue;
    }
    if (!DOCUMENT_NAME.test(entry.name) || walk.found.has(rel) || walk.ignored(rel, false))
      continue;
    if (!walk.matchers.some((matcher) => matcher.test(rel))) continue;
    const info = statInside(join(walk.rootDir, ...rel.split('/')), walk.realRoot);
    if (info?.isFile()) walk.found.set(rel, { path: rel, bytes: info.size, mtimeMs: info.mtimeMs });
  }
}

/**
 * A glob's base folder as it is spelled on disk, each segment matched with
 * letter case ignored (`docs/**` walks `Docs/`); undefined when absent.
 */
function baseOnDisk(rootDir: string, base: string): string | undefined {
  let found = '';
  for (const segment of base.split('/').filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(join(rootDir, ...found.split('/').filter(Boolean)));
    } catch {
      return undefined;
    }
    const name =
      names.find((n) => n === segment) ??
      names.find((n) => n.toLowerCase() === segment.toLowerCase());
    if (!name) return undefined;
    found = found ? `${found}/${name}` : name;
  }
  return found;
}

/** The documents the globs select, in path order, within the caps. */
export function listDocuments(rootDir: string, options: DocumentSourceOptions): SourceFile[] {
  const walk: Walk = {
    rootDir,
    realRoot: realRootOf(rootDir),
    ignored: readGitignore(rootDir),
    matchers: options.globs.map(globMatcher),
    found: new Map(),
  };
  for (const glob of options.globs) {
    const base = baseOnDisk(rootDir, globBase(glob));
    if (base === undefined) continue;
    const baseDepth = base === '' ? 0 : base.split('/').length;
    if (base !== '' && walk.ignored(base, true)) continue;
    walkFolder(walk, base, globDepth(glob) - baseDepth);
  }
  const files: SourceFile[] = [];
  let total = 0;
  for (const file of [...walk.found.values()].sort((a, b) => compareCodeUnits(a.path, b.path))) {
    if (file.bytes > options.maxFileBytes) continue;
    if (total + file.bytes > options.maxTotalBytes) break;
    total += file.bytes;
    files.push(file);
  }
  return files;
}

/** Text only: a NUL byte in the first 8 KiB marks a binary file. */
const isBinary = (bytes: Buffer) => bytes.subarray(0, 8192).includes(0);

/**
 * The project's own documents as a pool source (the cold `documents`
 * pool): files the globs select under the root, markdown and text only,
 * `.gitignore`d files, hidden entries and `node_modules` skipped, links
 * leaving the root refused, each file and the total under their caps.
 * It only lists and reads: nothing under the root is ever written.
 */
export function documentPoolSource(rootDir: string, options: DocumentSourceOptions): PoolSource {
  // Built on first read: opening a project costs no syscall for a pool it may never recall.
  let realRoot: string | undefined;
  let matchers: PathMatcher[] | undefined;
  return {
    key: DOCUMENTS_POOL_ID,
    list: () => listDocuments(rootDir, options),
    // Cut by Markdown section when indexed (document-sections.ts), never per prompt.
    chunk: documentSectionChunks,
    async read(path) {
      if (path.split('/').some((part) => part === '..' || part === '') || isAbsolute(path)) {
        return undefined;
      }
      matchers ??= options.globs.map(globMatcher);
      realRoot ??= realRootOf(rootDir);
      if (!matchers.some((matcher) => matcher.test(path))) return undefined;
      const full = join(rootDir, ...path.split('/'));
      const info = statInside(full, realRoot);
      if (!info?.isFile() || info.size > options.maxFileBytes) return undefined;
      try {
        if (!inside(realRoot, await fsp.realpath(full))) return undefined;
        const bytes = await fsp.readFile(full);
        return isBinary(bytes) ? undefined : bytes;
      } catch {
        return undefined;
      }
    },
  };
}
