import { formatNumber as f, type Table, verdict } from '../report';
import type { Distribution } from '../stats';
import type { ScaleFigures } from './scale-figures';

/** Printed beside the figures; information only. */
export const SCALE_TARGETS = { searchP95Ms: 10, refreshMs: 50, cliRatio: 2.5 } as const;

const pair = (d: Distribution) => `${f(d.p50, 2)} / ${f(d.p95, 2)} ms`;

function indexRows(figures: ScaleFigures): string[][] {
  const { workspace, index } = figures;
  const { rebuild, refreshUnchanged, refreshOneFile, indexSearch, backendSearch } = index;
  const searchTarget = `p95 <= ${SCALE_TARGETS.searchP95Ms} ms`;
  return [
    [
      'Workspace',
      `${workspace.files} files, ${f(workspace.units, 0)} units, ${f(workspace.totalMb)} MB (${f(workspace.rawMb)} MB RAW notes)`,
      '',
      '',
    ],
    [
      'Full index build (`rebuild()`)',
      `${f(rebuild.ms, 0)} ms, ${f(rebuild.mbPerSecond, 2)} MB/s, ${f(rebuild.chunksWritten, 0)} chunks from ${rebuild.filesScanned} files`,
      '',
      '',
    ],
    [
      `Refresh, nothing changed (p50 / p95, ${refreshUnchanged.n} runs)`,
      pair(refreshUnchanged),
      '',
      '',
    ],
    [
      `Refresh after appending a unit to one daily file (p50 / p95, ${refreshOneFile.n} runs)`,
      `${pair(refreshOneFile)}; ${refreshOneFile.runsWithOneFileChanged}/${refreshOneFile.n} saw exactly 1 changed file`,
      `median <= ${SCALE_TARGETS.refreshMs} ms`,
      verdict(refreshOneFile.p50 <= SCALE_TARGETS.refreshMs),
    ],
    [
      `\`index.search\` in process (p50 / p95, ${indexSearch.n} queries, limit 10)`,
      `${pair(indexSearch)}; median ${f(indexSearch.medianHits, 0)} hits, ${indexSearch.zeroHitQueries} empty`,
      searchTarget,
      verdict(indexSearch.p95 <= SCALE_TARGETS.searchP95Ms),
    ],
    [
      `\`createFileBackend().search\` in process (p50 / p95, ${backendSearch.n} queries)`,
      `${pair(backendSearch)}; median ${f(backendSearch.medianHits, 0)} hits, ${backendSearch.zeroHitQueries} empty`,
      searchTarget,
      verdict(backendSearch.p95 <= SCALE_TARGETS.searchP95Ms),
    ],
  ];
}

function cliRows(figures: ScaleFigures): string[][] {
  const { cli } = figures;
  if (!cli.available)
    return [['`cairn search` (whole process)', `not measured: ${cli.reason}`, '', 'n/a']];
  return [
    [`Bare \`node -e 0\` (p50 / p95, ${cli.runs} runs)`, pair(cli.node), '', ''],
    [
      `\`cairn search <q> --root <root> --json\` (p50 / p95, ${cli.runs} runs, interleaved)`,
      `${pair(cli.cairn)}${cli.failedRuns ? `; ${cli.failedRuns} runs failed` : ''}`,
      '',
      '',
    ],
    [
      '`cairn search` / bare node (medians)',
      `${f(cli.ratio, 2)}x`,
      `<= ${SCALE_TARGETS.cliRatio}x`,
      verdict(cli.ratio <= SCALE_TARGETS.cliRatio),
    ],
  ];
}

export function scaleTables(figures: ScaleFigures): Table[] {
  const notes = [
    `Workspace generation (not part of any target) took ${f(figures.workspace.generationMs, 0)} ms.`,
    'Every latency is one call measured with `performance.now()`; the first 10 searches of each kind are a warm-up and not counted.',
    'Both in-process searches bring the index up to date before querying (one stat per file when nothing changed), so they include that check.',
  ];
  const slowest = figures.index.indexSearch.slowest
    .map((run) => `"${run.query}" ${f(run.ms, 1)} ms`)
    .join(', ');
  notes.push(`Slowest \`index.search\` queries: ${slowest}.`);
  if (figures.quick)
    notes.unshift('QUICK run: sizes are shrunk; these figures are a smoke test, not results.');
  return [
    {
      title: 'Index and search at scale',
      columns: ['Measure', 'Figure', 'Target', 'Result'],
      rows: [...indexRows(figures), ...cliRows(figures)],
      notes,
    },
  ];
}
