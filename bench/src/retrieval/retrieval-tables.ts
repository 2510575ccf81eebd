import { formatNumber as f, type Table, verdict } from '../report';
import type { Distribution } from '../stats';
import type { BackendScaleFigures } from './backend-scale';
import type { ProcessFigures } from './cli-compare';
import type { RetrievalFigures, SizeFigures } from './retrieval-figures';

/** Printed beside the figures; information only. */
export const RETRIEVAL_TARGETS = {
  /** `qmd search` median over `cairn search` median, same Node, same corpus. */
  cliSpeedup: 3,
} as const;

const pair = (d: Distribution) => `${f(d.p50, 2)} / ${f(d.p95, 2)} ms`;
const count = (n: number) => n.toLocaleString('en-US');

function backendRow(size: SizeFigures, backend: BackendScaleFigures): string[] {
  const corpus = `${count(size.units)} units`;
  if (!backend.available) {
    return [corpus, backend.label, `not measured: ${backend.reason}`, '', ''];
  }
  const build = `${f(backend.buildMs / 1000, 2)} s: ${f(backend.chunksPerSecond, 0)} chunks/s, ${f(backend.mbPerSecond, 2)} MB/s`;
  const search = `${pair(backend.search)} (${backend.search.n} queries; median ${f(backend.medianHits, 0)} hits, ${backend.zeroHitQueries} empty)`;
  const warned = backend.warnings.length ? `${backend.warnings.length} warning(s), see notes` : '';
  return [corpus, backend.label, build, search, warned];
}

function backendTable(figures: RetrievalFigures): Table {
  const rows = figures.sizes.flatMap((size) =>
    size.backends.map((backend) => backendRow(size, backend)),
  );
  const corpora = figures.sizes.map(
    (size) =>
      `${count(size.units)} units: ${size.files} files, ${f(size.mb, 1)} MB, ${size.chunks === undefined ? 'chunk count unknown' : `${count(size.chunks)} chunks`} (generated in ${f(size.generationMs, 0)} ms).`,
  );
  const warnings = figures.sizes.flatMap((size) =>
    size.backends.flatMap((backend) =>
      backend.available && backend.warnings.length
        ? [`${backend.label} at ${count(size.units)} units: ${backend.warnings.join('; ')}`]
        : [],
    ),
  );
  return {
    title: 'Index build throughput and in-process search (limit 10)',
    columns: ['Corpus', 'Backend', 'Full build', 'Search p50 / p95', 'Warnings'],
    rows,
    notes: [
      ...corpora,
      "Build: `rebuild` from nothing (file: `openSearchIndex(root).rebuild()`; LanceDB and Mem0: the backend's `rebuild(root)`), including embedding every chunk for the vector arms; chunks/s counts the chunks of the file index.",
      'Search: `backend.search(root, { query, limit: 10 })`, one call timed with `performance.now()`; each first brings its index up to date (a stat per file when nothing changed).',
      ...warnings,
    ],
  };
}

function processRow(label: string, figures: ProcessFigures, runs: number): string[] {
  const extra = [
    figures.emptyRuns ? `${figures.emptyRuns} found nothing` : '',
    figures.failedRuns ? `${figures.failedRuns} failed: ${figures.firstFailure}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [
    `${label} (p50 / p95, ${runs} runs)`,
    `${pair(figures)}${extra ? `; ${extra}` : ''}`,
    '',
    '',
  ];
}

function cliTable(figures: RetrievalFigures): Table {
  const { cli } = figures;
  const title = `\`cairn search\` vs \`qmd search\`, whole process (${count(cli.units)}-unit corpus)`;
  const columns = ['Measure', 'Figure', 'Target', 'Result'];
  if (!cli.available) {
    return { title, columns, rows: [['Both', `not measured: ${cli.reason}`, '', 'n/a']] };
  }
  const ratio = (d: Distribution) => `${f(d.p50 / cli.bare.p50, 2)}x bare node`;
  return {
    title,
    columns,
    rows: [
      ["`qmd collection add` (qmd's index build)", `${f(cli.qmdIndexMs, 0)} ms`, '', ''],
      processRow('Bare `node -e 0`', cli.bare, cli.runs),
      processRow('`cairn --version` (starting Cairn, no search)', cli.cairnStart, cli.runs),
      processRow('`cairn search <q> --root <root> --json`', cli.cairn, cli.runs),
      processRow('`qmd search <q> --json -n 10 -c <collection>`', cli.qmd, cli.runs),
      [
        'Medians against bare node',
        `cairn --version ${ratio(cli.cairnStart)}, cairn search ${ratio(cli.cairn)}, qmd ${ratio(cli.qmd)}`,
        '',
        '',
      ],
      [
        '`qmd search` / `cairn search` (medians)',
        `Cairn ${f(cli.speedup, 2)}x faster`,
        `>= ${RETRIEVAL_TARGETS.cliSpeedup}x`,
        verdict(cli.speedup >= RETRIEVAL_TARGETS.cliSpeedup),
      ],
    ],
    notes: [
      `All four on Node ${cli.node} (the @cairn/node24 binary); interleaved, two warm-up rounds not counted; one probe \`cairn search\` builds Cairn's index first.`,
      "Queries are 1-4 word generator queries. Found nothing, for Cairn: none of the words occurs in the units-only corpus (half the words are drawn uniformly from the whole vocabulary); qmd's BM25 also needs every term in one document (here a daily file of 100 units), so it finds nothing more often.",
    ],
  };
}

export function retrievalTables(figures: RetrievalFigures): Table[] {
  const tables = [backendTable(figures), cliTable(figures)];
  if (figures.quick) {
    tables[0]!.notes!.unshift(
      'QUICK run: sizes are shrunk; these figures are a smoke test, not results.',
    );
  }
  return tables;
}
