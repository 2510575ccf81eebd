import corpus from './signature-corpus.json' with { type: 'json' };

/*
 * The signature test cases: failures as tools print them, kept as data in
 * signature-corpus.json. A case's text is a template over the parts that
 * change between two runs of one failure: `{root}`, `{line}`, ... and
 * `{ms|div:1000|fixed:3}` (a filter chain); `{{` and `}}` are braces.
 */

/** What changes between two runs of one failure: where, when, and random names. */
export interface Volatile {
  root: string;
  home: string;
  line: number;
  col: number;
  line2: number;
  ms: number;
  port: number;
  sha: string;
  pid: number;
  tmp: string;
  uuid: string;
  time: string;
  addr: string;
}

export const RUN_A: Volatile = {
  root: '/home/alice/work/shop',
  home: '/home/alice',
  line: 12,
  col: 5,
  line2: 88,
  ms: 34,
  port: 3000,
  sha: '3f2a1b9c',
  pid: 41234,
  tmp: 'tmp-41234-Xa81kq0Zb3',
  uuid: '0f42c8fe-6cd5-4809-b57d-f1d3d9c41ae8',
  time: '2026-11-25T17:43:12.120Z',
  addr: '0x7ffd5a3c1e40',
};

export const RUN_B: Volatile = {
  root: '/Users/bob/src/github.com/acme/shop-v2',
  home: '/Users/bob',
  line: 140,
  col: 27,
  line2: 9,
  ms: 1203,
  port: 51873,
  sha: 'a9e0c47d1b2f',
  pid: 77,
  tmp: 'tmp-77-pQ9x2L0m55',
  uuid: '9b1d2e3f-1111-4a2b-9c3d-aa00bb11cc22',
  time: '2025-01-02T03:04:05+01:00',
  addr: '0xc000123abc',
};

/** One failure as a tool prints it, written over the volatile parts. */
export interface CorpusCase {
  name: string;
  family: string;
  text: (v: Volatile) => string;
  /** Whether the text holds volatile parts (two runs print it differently). */
  volatile: boolean;
  /** The command that ran it (its family is part of the signature). */
  command?: string;
  tool?: string;
}

interface StoredCase {
  name: string;
  family: string;
  text: string;
  command?: string;
  tool?: string;
}

const PLACEHOLDER = /\{\{|\}\}|\{(\w+)((?:\|[\w:]+)*)\}/g;

/** One filter of a placeholder's chain, applied to the value so far. */
function applyFilter(value: string | number, filter: string): string | number {
  const [name, ...args] = filter.split(':');
  if (name === 'div') return Number(value) / Number(args[0]);
  if (name === 'fixed') return Number(value).toFixed(Number(args[0]));
  if (name === 'round') return Math.round(Number(value));
  if (name === 'slice') return String(value).slice(Number(args[0]), Number(args[1]));
  if (name === 'colons') return String(value).replace(/:/g, args[0] ?? '');
  throw new Error(`signature corpus: unknown filter "${filter}"`);
}

/** The case's text as one run printed it. */
export function renderCase(template: string, run: Volatile): string {
  return template.replace(PLACEHOLDER, (match, field: string | undefined, chain: string) => {
    if (!field) return match[0]!;
    if (!(field in run)) throw new Error(`signature corpus: unknown field "${field}"`);
    const start: string | number = run[field as keyof Volatile];
    return String(chain.split('|').slice(1).reduce(applyFilter, start));
  });
}

function caseOf(stored: StoredCase): CorpusCase {
  return {
    ...stored,
    text: (v) => renderCase(stored.text, v),
    volatile: /\{\w/.test(stored.text.replaceAll('{{', '')),
  };
}

/** A group of cases by their names, in name order (as the cases were listed before). */
function groupOf<K extends string>(group: Record<K, StoredCase>): Record<K, CorpusCase> {
  const names = (Object.keys(group) as K[]).sort();
  return Object.fromEntries(names.map((name) => [name, caseOf(group[name])])) as Record<
    K,
    CorpusCase
  >;
}

export const javascript = groupOf(corpus.javascript);
export const native = groupOf(corpus.native);
export const tools = groupOf(corpus.tools);
/**
 * Second forms of the ecosystems' errors: the other way a tool says a
 * thing (CommonJS vs ESM, npm without a code, yarn classic, a syntax error
 * with no traceback header, a jest suite that cannot load, cmd.exe).
 */
export const variants = groupOf(corpus.variants);

/** Every corpus case, each ecosystem's group in turn. */
export const ALL_CASES: readonly CorpusCase[] = [
  ...Object.values<CorpusCase>(javascript),
  ...Object.values<CorpusCase>(native),
  ...Object.values<CorpusCase>(tools),
  ...Object.values<CorpusCase>(variants),
];
