import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import { dirname } from 'node:path';

export type SectionName =
  | 'scale'
  | 'working'
  | 'harnesses'
  | 'lived-in'
  | 'retrieval'
  | 'locomo'
  | 'coding-memory'
  | 'signatures'
  | 'packs'
  | 'maintenance'
  | 'injection'
  | 'compare';

/** A table both printed to the terminal and written to markdown. */
export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  notes?: string[];
}

/** One bench's output: prose for the doc, tables, and the raw figures for JSON. */
export interface Section {
  name: SectionName;
  title: string;
  intro: string[];
  tables: Table[];
  figures: unknown;
  /** Replaces the "Measured ..." line for a section measured on more than one checkout (compare). */
  measured?: string;
}

export interface RunMeta {
  date: string;
  commit: string;
  /** True when the working tree had uncommitted changes. */
  dirty: boolean;
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
  /** One-minute load average when the run started: other work on the machine skews latencies. */
  loadAverage: number;
  quick: boolean;
}

function git(repoRoot: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

export function collectMeta(repoRoot: string, quick: boolean): RunMeta {
  const cpuList = cpus();
  return {
    date: new Date().toISOString(),
    commit: git(repoRoot, ['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    // The report this run rewrites does not make the code under test dirty.
    dirty:
      (git(repoRoot, ['status', '--porcelain', '--', '.', ':!docs/BENCHMARKS.md']) ?? '') !== '',
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${platform()} ${arch()}`,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    quick,
  };
}

export function describeMeta(meta: RunMeta): string {
  const when = `${meta.date.slice(0, 16).replace('T', ' ')} UTC`;
  const commit = `commit ${meta.commit}${meta.dirty ? ' (with uncommitted changes)' : ''}`;
  const machine = `${meta.cpu}, ${meta.cores} cores, ${meta.memoryGb} GB memory, Node ${meta.node}, ${meta.platform}`;
  return `${when}, ${commit}; ${machine}; load average ${meta.loadAverage} at start`;
}

/** Tables of a QUICK run say so in their first note: shrunk sizes are a smoke test, not results. */
export function markQuick(tables: Table[], quick: boolean | undefined): Table[] {
  const first = tables[0];
  if (quick && first) {
    first.notes = [
      'QUICK run: sizes are shrunk; these figures are a smoke test, not results.',
      ...(first.notes ?? []),
    ];
  }
  return tables;
}

export const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS');

/** Fixed decimals, with thousands separators for big values. */
export function formatNumber(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function renderConsoleTable(table: Table): string {
  const all = [table.columns, ...table.rows];
  const widths = table.columns.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const notes = (table.notes ?? []).map((note) => `  * ${note}`);
  return [table.title, line(table.columns), rule, ...table.rows.map(line), ...notes].join('\n');
}

function renderMarkdownTable(table: Table): string {
  const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');
  const row = (cells: string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  const rule = `|${table.columns.map(() => ' --- ').join('|')}|`;
  const notes = (table.notes ?? []).map((note) => `- ${note}`);
  const body = [row(table.columns), rule, ...table.rows.map(row)];
  return [`### ${table.title}`, '', ...body, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

const start = (name: string) => `<!-- bench:${name}:start -->`;
const end = (name: string) => `<!-- bench:${name}:end -->`;

function renderSection(section: Section, meta: RunMeta): string {
  return [
    start(section.name),
    `## ${section.title}`,
    '',
    `_Measured ${section.measured ?? describeMeta(meta)}._`,
    '',
    ...section.intro.flatMap((paragraph) => [paragraph, '']),
    ...section.tables.flatMap((table) => [renderMarkdownTable(table), '']),
    end(section.name),
  ].join('\n');
}

/** The section as a previous run wrote it, so a partial run keeps the other figures. */
export function previousSection(existing: string | undefined, name: string): string | undefined {
  if (!existing) return undefined;
  const from = existing.indexOf(start(name));
  const to = existing.indexOf(end(name));
  return from === -1 || to < from ? undefined : existing.slice(from, to + end(name).length);
}

const REPRODUCE = [
  '## Reproduce',
  '',
  '```sh',
  'pnpm install && pnpm build',
  'pnpm bench                 # every section; rewrites this file',
  'pnpm bench scale           # only the Scale section',
  'pnpm bench working         # only the Working memory section',
  'pnpm bench lived-in        # a year of use (built once, cached under bench/.cache/)',
  'pnpm bench retrieval       # backends at 10k and 100k chunks, `cairn search` vs `qmd search`',
  'pnpm bench locomo --data ../shared/bench/locomo/locomo-dev.json',
  'pnpm bench coding-memory  # the coding-memory set (bench/fixtures/coding-memory)',
  'CAIRN_BENCH_MODEL_DIR=~/models pnpm bench coding-memory   # with a local model (docs/SEARCH.md)',
  'pnpm bench signatures      # error signatures over the captured failure corpus',
  'pnpm bench packs           # context pack assembly and the budget check',
  'pnpm bench maintenance     # insight extraction, a year of runs, pair detection, staleness',
  'pnpm bench injection       # what each hook profile injects, against a labelled dataset',
  'pnpm bench compare --before ../before   # default sections on another checkout, then this one',
  'pnpm bench compare --before ../before harnesses working   # only these sections',
  'pnpm bench --json bench.json   # also write every figure (and every table) as JSON',
  'pnpm bench --quick         # smoke test with small sizes; never writes this file',
  'pnpm packed-install --sizes-only --write-doc   # only the Package tarballs section',
  '```',
  '',
  '`pnpm bench compare --before <dir> [section ...]` measures another checkout and this one in the same run:',
  '`<dir>` is a checkout of this repository, installed and built (`git worktree add ../before <ref> &&',
  'cd ../before && pnpm install --frozen-lockfile && pnpm build`). Each section runs there, then here, one',
  'after the other, as `pnpm bench <section> --json`; the figures are paired by section, table and row and',
  'written to "Before and after" above, with each target and whether it was met on each side. The before',
  "run rewrites that checkout's own BENCHMARKS.md; here only the compare's section is written. Without",
  'sections it runs lived-in, working, harnesses, packs, injection, coding-memory, locomo and signatures,',
  'about six minutes a side on two cores once each checkout has its lived-in project cached (`pnpm bench',
  "compare --help`). The before run is that checkout's own code: name one you would run yourself.",
  '',
];

/** The bench's measured sections, in the order docs/BENCHMARKS.md shows them. */
export const MEASURED_SECTIONS = [
  'scale',
  'working',
  'harnesses',
  'lived-in',
  'retrieval',
  'locomo',
  'coding-memory',
  'signatures',
  'packs',
  'maintenance',
  'injection',
] as const satisfies readonly SectionName[];

/** Every section of docs/BENCHMARKS.md, the before-and-after comparison last. */
const ORDER: SectionName[] = [...MEASURED_SECTIONS, 'compare'];

/** Sections other tools write into the same file (tools/repo's packed-install): kept as they are. */
const FOREIGN_SECTIONS = ['packages:tarballs'];

function foreignSections(existing: string | undefined): string[] {
  return FOREIGN_SECTIONS.flatMap((name) => {
    const from = existing?.indexOf(`<!-- ${name}:start -->`) ?? -1;
    const close = `<!-- ${name}:end -->`;
    const to = existing?.indexOf(close) ?? -1;
    return existing && from !== -1 && to > from ? [existing.slice(from, to + close.length)] : [];
  });
}

export function renderBenchmarksDoc(meta: RunMeta, sections: Section[], existing?: string): string {
  const parts = ORDER.map((name) => {
    const fresh = sections.find((section) => section.name === name);
    if (fresh) return renderSection(fresh, meta);
    const command = name === 'compare' ? 'compare --before <dir>' : name;
    return (
      previousSection(existing, name) ??
      `${start(name)}\n_Not run yet: \`pnpm bench ${command}\`._\n${end(name)}`
    );
  });
  return [
    '# Benchmarks',
    '',
    '<!-- Generated by `pnpm bench` (bench/src/main.ts). Do not edit by hand: rerun the bench. -->',
    '',
    '> Written by `pnpm bench`; do not edit. Each section states the machine, date and commit it was measured on.',
    `> Last run: ${describeMeta(meta)}.`,
    '',
    'Targets are information only: a MISS never fails the run. Latencies are wall-clock milliseconds;',
    'MB means 10^6 bytes. Medians and ratios come from one run, measured side by side.',
    '',
    ...parts.flatMap((part) => [part, '']),
    ...foreignSections(existing).flatMap((part) => [part, '']),
    ...REPRODUCE,
  ].join('\n');
}

export async function writeBenchmarksDoc(
  path: string,
  meta: RunMeta,
  sections: Section[],
): Promise<void> {
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  await writeFile(path, renderBenchmarksDoc(meta, sections, existing));
}

export async function writeJsonReport(
  path: string,
  meta: RunMeta,
  sections: Section[],
): Promise<void> {
  const figures = Object.fromEntries(sections.map((section) => [section.name, section.figures]));
  // The tables as printed, with their targets and verdicts: what `pnpm bench compare` pairs.
  const tables = Object.fromEntries(sections.map((section) => [section.name, section.tables]));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify({ meta, ...figures, tables }, null, 2)}\n`);
}
