/**
 * Globs matched in linear time. A glob is repository content (a project
 * config's `memory.documentGlobs`, a `.gitignore` line), and a glob turned
 * into a backtracking regex (`*a*a*a*b` as `[^/]*?a[^/]*?a…`) takes
 * exponential time on a path that almost matches: one committed line held
 * a prompt hook for minutes. So a glob becomes a list of steps run as a
 * set of states over the path, one pass, at most steps × characters work
 * (the way RE2 and Go's path.Match avoid it).
 */

/** One step of a compiled glob. */
type Step =
  /** One character the test accepts; `wild` when a wildcard (`?`, a class), not a literal. */
  | { kind: 'one'; test: (char: string) => boolean; wild: boolean }
  /** `*`: any run of characters within a folder name. */
  | { kind: 'star' }
  /** `**`: any run of characters, across folders. */
  | { kind: 'any' }
  /** A choice made without reading: go on to the next step, or jump to `to`. */
  | { kind: 'fork'; to: number };

export interface GlobOptions {
  /** Letter case ignored (the documents globs); .gitignore is case-sensitive. */
  nocase?: boolean;
  /** A wildcard does not match a `.` starting a name (hidden entries), as picomatch's default. */
  dotless?: boolean;
  /** `[abc]`, `[a-z]`, `[!x]` are classes; otherwise `[` is literal (.gitignore here). */
  classes?: boolean;
  /** `{a,b}` groups are alternatives; otherwise `{` is literal (.gitignore here). */
  braces?: boolean;
  /** Matches the glob after any folders too (`(?:.*\/)?` before it: unanchored .gitignore rules). */
  anyFolder?: boolean;
}

/** A compiled glob: `test(path)` on a `/`-separated relative path. */
export interface PathMatcher {
  test(path: string): boolean;
}

/** At most this many alternatives from `{a,b}` groups; the rest are left out. */
const MAX_ALTERNATIVES = 64;

/** The index of the `}` closing the `{` at `open`, or -1. */
function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let at = open; at < glob.length; at += 1) {
    const char = glob[at];
    if (char === '\\') at += 1;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return at;
    }
  }
  return -1;
}

/** The top-level `,`-separated parts of a brace group's inside. */
function braceParts(inside: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < inside.length; at += 1) {
    const char = inside[at];
    if (char === '\\') at += 1;
    else if (char === '{') depth += 1;
    else if (char === '}') depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(inside.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(inside.slice(start));
  return parts;
}

/** `{a,b}` groups expanded (nested too), at most MAX_ALTERNATIVES results. */
export function expandBraces(glob: string): string[] {
  for (let at = 0; at < glob.length; at += 1) {
    if (glob[at] === '\\') {
      at += 1;
      continue;
    }
    if (glob[at] !== '{') continue;
    const close = closingBrace(glob, at);
    if (close < 0) return [glob];
    const parts = braceParts(glob.slice(at + 1, close));
    if (parts.length < 2) continue;
    const out: string[] = [];
    for (const part of parts) {
      for (const tail of expandBraces(`${part}${glob.slice(close + 1)}`)) {
        if (out.length >= MAX_ALTERNATIVES) return out;
        out.push(`${glob.slice(0, at)}${tail}`);
      }
    }
    return out;
  }
  return [glob];
}

/** A `[...]` class starting at `open`: its test and where it ends, or undefined when unclosed. */
function charClass(glob: string, open: number, nocase: boolean) {
  let at = open + 1;
  const negated = glob[at] === '!' || glob[at] === '^';
  if (negated) at += 1;
  const ranges: [string, string][] = [];
  for (let first = true; at < glob.length && (first || glob[at] !== ']'); first = false) {
    const low = glob[at]!;
    if (glob[at + 1] === '-' && glob[at + 2] !== undefined && glob[at + 2] !== ']') {
      ranges.push([low, glob[at + 2]!]);
      at += 3;
    } else {
      ranges.push([low, low]);
      at += 1;
    }
  }
  if (glob[at] !== ']') return undefined;
  const inRange = (char: string) => ranges.some(([from, to]) => char >= from && char <= to);
  const test = (char: string) => {
    if (char === '/') return false;
    const hit =
      inRange(char) || (nocase && (inRange(char.toLowerCase()) || inRange(char.toUpperCase())));
    return hit !== negated;
  };
  return { test, end: at };
}

const literal = (expected: string, nocase: boolean): Step => {
  const want = nocase ? expected.toLowerCase() : expected;
  return {
    kind: 'one',
    wild: false,
    test: nocase ? (char) => char.toLowerCase() === want : (char) => char === want,
  };
};

/** `**` standing for whole folders: a segment of its own. */
const isGlobstar = (glob: string, at: number) =>
  glob[at + 1] === '*' &&
  (at === 0 || glob[at - 1] === '/') &&
  (at + 2 === glob.length || glob[at + 2] === '/');

/** `**\/` as steps: skip them all, or any run ending at a `/`. */
function anyFolders(steps: Step[]): void {
  const start = steps.length;
  steps.push({ kind: 'fork', to: start + 3 }, { kind: 'any' }, literal('/', false));
}

/** The steps of one glob without braces. */
function compileSteps(glob: string, options: GlobOptions): Step[] {
  const nocase = options.nocase ?? false;
  const steps: Step[] = [];
  if (options.anyFolder) anyFolders(steps);
  for (let at = 0; at < glob.length; at += 1) {
    const char = glob[at]!;
    if (char === '*' && isGlobstar(glob, at)) {
      if (glob[at + 2] === '/') anyFolders(steps);
      else steps.push({ kind: 'any' });
      at += glob[at + 2] === '/' ? 2 : 1;
    } else if (char === '*') {
      while (glob[at + 1] === '*') at += 1;
      steps.push({ kind: 'star' });
    } else if (char === '?') steps.push({ kind: 'one', wild: true, test: (c) => c !== '/' });
    else if (char === '[' && options.classes) {
      const found = charClass(glob, at, nocase);
      if (found) {
        steps.push({ kind: 'one', wild: true, test: found.test });
        at = found.end;
      } else steps.push(literal(char, nocase));
    } else if (char === '\\' && at + 1 < glob.length) {
      at += 1;
      steps.push(literal(glob[at]!, nocase));
    } else steps.push(literal(char, nocase));
  }
  return steps;
}

/** Adds `index` and what it reaches without reading (forks, the empty run of `*`/`**`) to `into`. */
function enter(
  steps: readonly Step[],
  index: number,
  into: number[],
  seen: Uint32Array,
  mark: number,
) {
  const stack = [index];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen[at] === mark) continue;
    seen[at] = mark;
    into.push(at);
    const step = steps[at];
    if (step?.kind === 'star' || step?.kind === 'any') stack.push(at + 1);
    else if (step?.kind === 'fork') stack.push(at + 1, step.to);
  }
}

/** The states one character leads to from state `index`. */
function advance(step: Step | undefined, index: number, char: string, hidden: boolean): number {
  if (step?.kind === 'one') return step.test(char) && !(hidden && step.wild) ? index + 1 : -1;
  if (step?.kind === 'star') return char !== '/' && !hidden ? index : -1;
  if (step?.kind === 'any') return hidden ? -1 : index;
  return -1;
}

/**
 * Whether the steps match the whole path: the set of states every prefix
 * reaches, advanced one character at a time (each state at most once per
 * character), so the work is at most steps × characters.
 */
function run(steps: readonly Step[], path: string, dotless: boolean): boolean {
  const seen = new Uint32Array(steps.length + 1);
  let mark = 1;
  let current: number[] = [];
  enter(steps, 0, current, seen, mark);
  for (let at = 0; at < path.length && current.length > 0; at += 1) {
    const char = path[at]!;
    const hidden = dotless && char === '.' && (at === 0 || path[at - 1] === '/');
    const next: number[] = [];
    mark += 1;
    for (const index of current) {
      const to = advance(steps[index], index, char, hidden);
      if (to >= 0) enter(steps, to, next, seen, mark);
    }
    current = next;
  }
  return current.includes(steps.length);
}

/** A glob as a matcher that takes linear time in the path (per alternative of its braces). */
export function compileGlob(glob: string, options: GlobOptions = {}): PathMatcher {
  const globs = options.braces ? expandBraces(glob) : [glob];
  const alternatives = globs.map((one) => compileSteps(one, options));
  const dotless = options.dotless ?? false;
  return { test: (path) => alternatives.some((steps) => run(steps, path, dotless)) };
}
