import { compileGlob, type PathMatcher } from './compile-glob';

/**
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
