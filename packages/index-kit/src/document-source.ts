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
import { compileGlob, type PathMatcher } from './compile-glob';
import { documentSectionChunks } from './document-sections';
import { MAX_FILES_PER_FOLDER } from './pool-definitions';

/*
 * Glob and .gitignore matching for the documents pool, on `/`-separated
 * paths relative to the project root, in linear time (compile-glob.ts):
 * globs and .gitignore lines are repository content, and a backtracking
 * regex made from `*a*a*a*b` would hold a hook for minutes. Globs are
 * case-insensitive (`README*` finds `readme.md` and `Readme.md`).
 */

/** A longer .gitignore line is skipped: no path it could match is that long. */
const MAX_IGNORE_LINE = 4096;

/**
 * A glob relative to the root, picomatch's syntax (`*`, `**`, `?`,
 * `{a,b}`, `[a-z]`), letter case ignored: `dir/` stands for everything
 * under `dir`; hidden files match only when the glob names them. Where
 * picomatch is quirky, bash and git decide: `[!a]` is any character but
 * `a` (picomatch reads `[^a]` so, and `[!a]` as `!` or `a`), and neither
 * matches the `.` that starts a hidden name; `**` spans folders only as a
 * whole segment (`**.md` is `*.md`); `dir/**` is what lies below `dir`
 * (picomatch names `dir` itself too for some globs and not for others).
 * compile-glob-parity.test.ts holds the rest to picomatch's answers.
 */
export function globMatcher(glob: string): PathMatcher {
  const trimmed = glob.replace(/^\.\//, '').replace(/^\/+/, '');
  const folder = trimmed.endsWith('/') ? `${trimmed}**` : trimmed;
  return compileGlob(folder, { nocase: true, dotless: true, classes: true, braces: true });
}

/** The folder a glob's walk starts in: its segments before the first wildcard ('' = the root). */
export function globBase(glob: string): string {
  const segments = glob.replace(/^\.\//, '').replace(/^\/+/, '').split('/');
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[]/.test(segment)) break;
    fixed.push(segment);
  }
  return fixed.join('/');
}

/** Whether the glob can match below its base's direct children (`**`, or more segments). */
export function globDepth(glob: string): number {
  if (glob.includes('**') || glob.endsWith('/')) return Number.POSITIVE_INFINITY;
  return glob.replace(/^\.\//, '').replace(/^\/+/, '').split('/').length;
}

interface IgnoreRule {
  pattern: PathMatcher;
  negated: boolean;
  directoryOnly: boolean;
}

/** The line without trailing white space, but a space escaped with `\\` kept (git's rule); linear. */
function trimIgnoreLine(line: string): string {
  let end = line.length;
  while (end > 0 && /\s/.test(line[end - 1]!)) end -= 1;
  if (end < line.length && end > 0 && line[end - 1] === '\\') end += 1;
  return line.slice(0, end);
}

function ignoreRule(line: string): IgnoreRule | undefined {
  if (line.length > MAX_IGNORE_LINE) return undefined;
  let text = trimIgnoreLine(line);
  if (text === '' || text.startsWith('#')) return undefined;
  const negated = text.startsWith('!');
  if (negated) text = text.slice(1);
  text = text.replace(/^\\([#!])/, '$1');
  const directoryOnly = text.endsWith('/');
  if (directoryOnly) text = text.slice(0, -1);
  // A slash at the start or in the middle anchors the pattern at the root.
  const anchored = text.includes('/');
  text = text.replace(/^\//, '');
  if (text === '') return undefined;
  return {
    pattern: compileGlob(text, { anyFolder: !anchored }),
    negated,
    directoryOnly,
  };
}

/**
 * The root `.gitignore` as a predicate. Supported: comments, blank lines,
 * `!` negation (the last matching rule wins), a trailing `/` for folders,
 * a leading or inner `/` anchoring at the root, `*`, `?` and `**`. Not
 * supported: nested `.gitignore` files, `.git/info/exclude`, the global
 * excludes file, character classes, and git's rule that a file inside an
 * excluded folder cannot be re-included (a later `!` re-includes it here).
 */
export function gitignoreMatcher(content: string): (path: string, isDirectory: boolean) => boolean {
  const rules = content
    .split(/\r?\n/)
    .map(ignoreRule)
    .filter((rule): rule is IgnoreRule => rule !== undefined);
  return (path, isDirectory) => {
    let ignored = false;
    const segments = path.split('/');
    for (const rule of rules) {
      // A folder rule also covers everything under the folder: test each ancestor.
      for (let depth = 1; depth <= segments.length; depth += 1) {
        const prefix = segments.slice(0, depth).join('/');
        const isFolder = depth < segments.length || isDirectory;
        if (rule.directoryOnly && !isFolder) continue;
        if (rule.pattern.test(prefix)) {
          ignored = !rule.negated;
          break;
        }
      }
    }
    return ignored;
  };
}

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
