import { sha256Hex } from '@cairn/core';

/**
 * What a unit's text cites of the code: file paths (`src/a.ts`,
 * `src/a.ts:42`) and symbols in backticks (`` `parseConfig` ``,
 * `` `Store.open()` ``); and, given a file's text, where a symbol is
 * defined and the span it spans. Pure functions over strings: git is
 * read elsewhere (git-objects.ts).
 */

export interface Citations {
  /** Paths, and for a command the file defining it with the script or target name as `symbol`. */
  paths: { path: string; line?: number; symbol?: string }[];
  symbols: string[];
}

/** `pnpm build`, `npm run lint:fix`, `yarn test`: a package.json script; `make migrate`: a Makefile target. */
const SCRIPT_COMMAND = /^(?:pnpm|npm|yarn|bun)\s+(?:run\s+)?([A-Za-z][\w:.-]*)(?:\s|$)/;
const MAKE_COMMAND = /^make\s+([A-Za-z][\w.-]*)(?:\s|$)/;
/** Package manager commands that are not scripts. */
const BUILTIN_COMMANDS = new Set(
  'install i add remove rm uninstall exec dlx x init create publish update up upgrade ci outdated why list ls link audit config store patch pack import dedupe prune rebuild view info login whoami'.split(
    ' ',
  ),
);

function commandCitation(inner: string): { path: string; symbol: string } | undefined {
  const script = SCRIPT_COMMAND.exec(inner)?.[1];
  if (script && !BUILTIN_COMMANDS.has(script)) return { path: 'package.json', symbol: script };
  const target = MAKE_COMMAND.exec(inner)?.[1];
  return target ? { path: 'Makefile', symbol: target } : undefined;
}

const PATH =
  /(?:^|[\s`'"([])((?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?::(\d{1,6}))?(?=$|[\s`'")\],.;:!?])/g;
const BACKTICKED = /`([^`\n]{1,120})`/g;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?(?:\(\))?$/;
/** Words that look like file names but are not code (versions, hosts, abbreviations). */
const NOT_PATHS = /^(?:e\.g|i\.e|etc|vs|[\d.]+|[\w-]+\.(?:com|org|net|io|dev))$/i;
/** Backticked words that are commands, keywords or values, not symbols. */
const NOT_SYMBOLS = new Set([
  'true',
  'false',
  'null',
  'undefined',
  'npm',
  'pnpm',
  'yarn',
  'git',
  'node',
  'const',
  'let',
  'var',
  'return',
  'async',
  'await',
]);

export function extractCitations(text: string): Citations {
  const paths = new Map<string, { path: string; line?: number }>();
  for (const match of text.matchAll(PATH)) {
    const path = match[1]!.replace(/^\.\//, '');
    if (NOT_PATHS.test(path) || path.includes('..')) continue;
    // A bare name with an extension counts only with a folder or a line (`README.md` alone is prose).
    if (
      !path.includes('/') &&
      match[2] === undefined &&
      !/\.(?:ts|tsx|js|mjs|cjs|py|rs|go|java|rb|json|yaml|yml|toml|sh)$/.test(path)
    )
      continue;
    const line = match[2] ? Number(match[2]) : undefined;
    paths.set(`${path}:${line ?? ''}`, { path, ...(line ? { line } : {}) });
  }
  const symbols = new Set<string>();
  for (const match of text.matchAll(BACKTICKED)) {
    const inner = match[1]!.trim();
    const command = commandCitation(inner);
    if (command) paths.set(`${command.path}#${command.symbol}`, command);
    if (!IDENTIFIER.test(inner) || NOT_SYMBOLS.has(inner)) continue;
    if (inner.includes('.') && /\.[a-z]{1,5}$/.test(inner) && !inner.endsWith('()')) continue;
    const name = inner.replace(/\(\)$/, '').split('.').at(-1)!;
    if (name.length >= 3) symbols.add(name);
  }
  return { paths: [...paths.values()], symbols: [...symbols] };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The line (1-based) where `symbol` is defined in `source`, by the usual
 * definition forms (functions, classes, types, constants, methods in
 * JS/TS, Python, Rust, Go), a package.json script (`"build":`) or a
 * Makefile target (`migrate:` at the start of a line).
 */
export function findDefinition(source: string, symbol: string): number | undefined {
  const name = escapeRegExp(symbol);
  const code = new RegExp(
    `^\\s*(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?(?:(?:function\\*?|class|interface|type|enum|const|let|var|def|fn|func|struct|trait|impl|module|namespace|pub\\s+fn|pub\\s+struct)\\s+${name}\\b|${name}\\s*(?:=|:)\\s*(?:async\\s*)?(?:function|\\()|(?:public|private|protected|static|\\s)*${name}\\s*\\([^)]*\\)\\s*(?::[^={]+)?\\{)`,
  );
  const script = new RegExp(`^\\s*"${name}"\\s*:`);
  const target = new RegExp(`^${name}:(?:\\s|$)`);
  const lines = source.split('\n');
  const index = lines.findIndex(
    (line) => code.test(line) || script.test(line) || target.test(line),
  );
  return index === -1 ? undefined : index + 1;
}

/** A definition's span: from its line to where its indentation closes (at most 200 lines). */
export function spanAt(source: string, line: number, maxLines = 200): string {
  const lines = source.split('\n');
  const first = lines[line - 1] ?? '';
  const indent = first.length - first.trimStart().length;
  const span = [first];
  for (let i = line; i < Math.min(lines.length, line - 1 + maxLines); i += 1) {
    const text = lines[i]!;
    span.push(text);
    const own = text.length - text.trimStart().length;
    if (text.trim() !== '' && own <= indent && i > line - 1) {
      // A closing brace at the definition's indentation ends it; any other line at that level is the next thing.
      if (!/^[\s]*[}\])]/.test(text)) span.pop();
      break;
    }
  }
  return span.join('\n');
}

/** Whitespace and blank lines do not count: a reformatted span hashes the same. */
export function spanHash(span: string): string {
  const normalized = span
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');
  return sha256Hex(normalized).slice(0, 16);
}
