import { formatNumber as f, type Table, verdict } from '../report';
import type { CodingAdapterFigures, CodingFigures } from './coding-figures';
import type { PartKey, RankSummary } from './rank-metrics';

/** Printed beside the figures; information only. */
export const CODING_TARGETS = { hit1: 0.75, hit3: 0.9, defaultAdapter: 'file-keyword' } as const;

const PARTS: { key: PartKey; label: string }[] = [
  { key: 'all', label: 'all' },
  { key: 'tune', label: 'tuned on' },
  { key: 'held-out', label: 'held out' },
];

/** `not run: ...` says itself why; anything else was tried and failed. */
const notMeasured = (reason = 'not run') =>
  reason.startsWith('not run') ? reason : `not measured: ${reason}`;

const cells = (summary: RankSummary | undefined) =>
  summary ? [f(summary.hit1, 3), f(summary.hit3, 3), f(summary.mrr, 3)] : ['', '', ''];

function qualityTable(figures: CodingFigures): Table {
  const rows: string[][] = [];
  for (const adapter of figures.adapters) {
    if (!adapter.available) {
      rows.push([adapter.label, '', '', notMeasured(adapter.reason), '', '']);
      continue;
    }
    for (const part of PARTS) {
      rows.push([
        adapter.label,
        part.label,
        String(adapter.byPart![part.key].questions),
        ...cells(adapter.byPart![part.key]),
      ]);
    }
  }
  for (const part of PARTS) {
    rows.push([
      'BM25 reference',
      part.label,
      String(figures.bm25.byPart[part.key].questions),
      ...cells(figures.bm25.byPart[part.key]),
    ]);
  }
  return {
    title: 'Retrieval quality by adapter (limit 10)',
    columns: ['Adapter', 'Questions', 'n', 'Hit@1', 'Hit@3', 'MRR'],
    rows,
    notes: [
      `${figures.units} units; ${figures.questions.all} questions, ${figures.questions.tune} tuned on and ${figures.questions['held-out']} held out. Stored in ${f(figures.addMs / 1000, 2)} s.`,
      ...(figures.quick
        ? ['QUICK run: the file adapters only; these figures are a smoke test, not results.']
        : []),
    ],
  };
}

function targetTable(figures: CodingFigures): Table {
  const adapter = figures.adapters.find((a) => a.id === CODING_TARGETS.defaultAdapter);
  const rows = PARTS.filter((part) => part.key !== 'tune').flatMap((part) => {
    const summary = adapter?.byPart?.[part.key];
    if (!summary)
      return [[adapter?.label ?? 'file keyword', part.label, 'not measured', '', 'n/a']];
    return [
      [
        adapter!.label,
        part.label,
        `Hit@1 ${f(summary.hit1, 3)}`,
        `>= ${CODING_TARGETS.hit1}`,
        verdict(summary.hit1 >= CODING_TARGETS.hit1),
      ],
      [
        adapter!.label,
        part.label,
        `Hit@3 ${f(summary.hit3, 3)}`,
        `>= ${CODING_TARGETS.hit3}`,
        verdict(summary.hit3 >= CODING_TARGETS.hit3),
      ],
    ];
  });
  return {
    title: 'Target: the embedded default with no neural model',
    columns: ['Adapter', 'Questions', 'Figure', 'Target', 'Result'],
    rows,
  };
}

function kindTable(figures: CodingFigures): Table {
  const measured = figures.adapters.filter((a) => a.available).slice(0, 2);
  const kinds = Object.keys(figures.bm25.byKind);
  return {
    title: 'Hit@1 / Hit@3 by how the question differs from its unit',
    columns: ['Question kind', 'n', ...measured.map((a) => a.label), 'BM25'],
    rows: kinds.map((kind) => {
      const pair = (s: RankSummary | undefined) => (s ? `${f(s.hit1, 2)} / ${f(s.hit3, 2)}` : '');
      return [
        kind,
        String(figures.bm25.byKind[kind]!.questions),
        ...measured.map((a) => pair(a.byKind?.[kind])),
        pair(figures.bm25.byKind[kind]),
      ];
    }),
  };
}

function missTable(figures: CodingFigures): Table | undefined {
  const adapter = figures.adapters.find((a) => a.id === CODING_TARGETS.defaultAdapter);
  if (!adapter?.misses) return undefined;
  const misses = adapter.misses.filter((miss) => miss.rank < 0 || miss.rank >= 3);
  return {
    title: `Questions the default did not answer in its first three (${misses.length})`,
    columns: ['Question', 'Part', 'Unit', 'Rank', 'First hit'],
    rows: misses.map((miss) => [
      miss.question,
      miss.part,
      miss.want,
      miss.rank < 0 ? 'not in 10' : String(miss.rank + 1),
      miss.first ?? '(none)',
    ]),
  };
}

function latencyRow(adapter: CodingAdapterFigures): string[] {
  if (!adapter.search || adapter.buildMs === undefined) return [adapter.label, 'not measured', ''];
  return [
    adapter.label,
    `${f(adapter.buildMs, 0)} ms`,
    `${f(adapter.search.p50, 2)} / ${f(adapter.search.p95, 2)} ms (${adapter.search.n} questions)`,
  ];
}

export function codingTables(figures: CodingFigures): Table[] {
  const misses = missTable(figures);
  return [
    qualityTable(figures),
    targetTable(figures),
    kindTable(figures),
    ...(misses ? [misses] : []),
    {
      title: 'Index build and search in process, by adapter',
      columns: ['Adapter', 'Refresh and first search', 'Search p50 / p95'],
      rows: figures.adapters.map(latencyRow),
    },
  ];
}
