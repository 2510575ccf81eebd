import picomatch from 'picomatch';

/**
 * Glob and .gitignore matching for the documents pool, on `/`-separated
 * paths relative to the project root. Globs go through picomatch,
 * case-insensitive (`README*` finds `readme.md` and `Readme.md`); it is
 * loaded when the documents are listed, not on a recall that lists none.
 */

const escapeRegex = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&');

/** The regex body of one glob: `**` crosses folders, `*` and `?` do not. */
function globBody(glob: string): string {
  let body = '';
  for (let at = 0; at < glob.length; at += 1) {
    const char = glob[at]!;
    if (char === '*' && glob[at + 1] === '*') {
      const slash = glob[at + 2] === '/';
      body += slash ? '(?:.*/)?' : '.*';
      at += slash ? 2 : 1;
    } else if (char === '*') body += '[^/]*';
    else if (char === '?') body += '[^/]';
    else body += escapeRegex(char);
  }
  return body;
}

/**
 * A glob relative to the root, as picomatch reads it, letter case ignored:
 * `dir/` stands for everything under `dir`; hidden files match only when
 * the glob names them.
 */
export function globMatcher(glob: string): RegExp {
  const trimmed = glob.replace(/^\.\//, '').replace(/^\/+/, '');
  const folder = trimmed.endsWith('/') ? `${trimmed}**` : trimmed;
  return picomatch.makeRe(folder, { nocase: true });
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
  pattern: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

function ignoreRule(line: string): IgnoreRule | undefined {
  let text = line.replace(/(?<!\\)\s+$/, '');
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
  const body = globBody(text);
  return {
    pattern: new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`),
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
