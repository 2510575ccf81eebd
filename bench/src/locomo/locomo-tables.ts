import { basename } from 'node:path';
import { formatNumber as f, type Table, verdict } from '../report';
import type { AdapterFigures } from '../retrieval/locomo-adapters';
import { round } from '../stats';
import type { LocomoFigures } from './locomo-figures';
import type { MetricSummary } from './metrics';

const CATEGORY_NAMES: Record<string, string> = {
  all: 'All (1-4)',
  '1': '1 multi-hop',
  '2': '2 temporal',
  '3': '3 open-domain',
  '4': '4 single-hop',
};

const METRICS: { key: keyof Omit<MetricSummary, 'questions'>; label: string }[] = [
  { key: 'hit1', label: 'Hit@1' },
  { key: 'recall5', label: 'R@5' },
  { key: 'recall10', label: 'R@10' },
  { key: 'ndcg5', label: 'NDCG@5' },
];

/** Printed beside the figures; information only. */
export const LOCOMO_TARGETS = {
  /** The embedded default without a neural model, in Recall@10 points above BM25. */
  recall10PointsOverBm25: 10,
  defaultAdapters: ['file-keyword', 'file-hybrid'],
  /** The embedded default (file keyword) on the development split. */
  recall10: 0.8,
  hit1: 0.5,
} as const;

/** `not run: ...` says itself why; anything else was tried and failed. */
const notMeasured = (reason = 'not run') =>
  reason.startsWith('not run') ? reason : `not measured: ${reason}`;

const points = (value: number, reference: number) => {
  const diff = (value - reference) * 100;
  return `${diff >= 0 ? '+' : ''}${f(diff, 1)}`;
};

/** Adapters run over the whole split (the main tables); the others ran on the first conversation. */
const split = (figures: LocomoFigures) =>
  figures.adapters.filter((adapter) => adapter.scope === 'split');

/** Every adapter on the first conversation's questions, beside the ones too slow for the split. */
function firstConversationTable(figures: LocomoFigures): Table | undefined {
  const firstOnly = figures.adapters.filter((a) => a.scope === 'first-conversation');
  const bm25 = figures.bm25FirstConversation;
  const first = figures.conversations[0];
  if (firstOnly.length === 0 || !bm25 || !first) return undefined;
  const row = (label: string, summary: MetricSummary) => [
    label,
    ...METRICS.map(({ key }) => f(summary[key], 3)),
    points(summary.recall10, bm25.recall10),
  ];
  const rows = figures.adapters.map((adapter) =>
    adapter.firstConversation
      ? row(adapter.label, adapter.firstConversation)
      : [adapter.label, notMeasured(adapter.reason), '', '', '', ''],
  );
  return {
    title: `First conversation only (${first.id}, ${bm25.questions} questions): every adapter`,
    columns: ['Adapter', ...METRICS.map((m) => m.label), 'R@10 vs BM25 (points)'],
    rows: [...rows, [...row('BM25 reference', bm25).slice(0, -1), '']],
    notes: [
      'The qmd backend answers each question with its own `qmd search` process (Node 24), a few hundred milliseconds each: over the whole split that alone would take minutes, so it runs on the first conversation and every other adapter is shown on the same questions.',
      'Unlike raw `qmd search` (one line per file), the backend reads each file qmd finds and returns its chunks ranked against the query, so it can return several turns per file.',
    ],
  };
}

function qualityTable(figures: LocomoFigures): Table {
  const bm25 = figures.bm25.all!;
  const row = (label: string, summary: MetricSummary, vsBm25: string) => [
    label,
    String(summary.questions),
    ...METRICS.map(({ key }) => f(summary[key], 3)),
    vsBm25,
  ];
  const rows = split(figures).map((adapter) =>
    adapter.summary?.all
      ? row(adapter.label, adapter.summary.all, points(adapter.summary.all.recall10, bm25.recall10))
      : [adapter.label, '', notMeasured(adapter.reason), '', '', '', ''],
  );
  rows.push(row('BM25 reference', bm25, ''));
  const stored = figures.conversations.reduce((sum, c) => sum + c.created, 0);
  const turns = figures.conversations.reduce((sum, c) => sum + c.turns, 0);
  const { questions } = figures;
  return {
    title: 'Retrieval quality by adapter, categories 1-4 (limit 10)',
    columns: ['Adapter', 'Questions', ...METRICS.map((m) => m.label), 'R@10 vs BM25 (points)'],
    rows,
    notes: [
      `${questions.scored} questions scored; left out: ${questions.adversarialSkipped} adversarial (category 5), ${questions.noEvidenceSkipped} with no usable evidence; ${questions.droppedEvidenceIds} malformed evidence entries dropped.`,
      stored === turns
        ? `Cairn stored all ${turns} turns; BM25 indexes the same ${turns}.`
        : `Cairn stored ${stored} of ${turns} turns (the rest were duplicates or failures, see below); BM25 indexes all ${turns}.`,
      `Data: ${basename(figures.data)}, ${figures.conversations.length} conversations (${figures.conversations.map((c) => c.id).join(', ')}).`,
      ...figures.adapters
        .filter((adapter) => adapter.warnings.length)
        .map((adapter) => `${adapter.label} warned: ${adapter.warnings.join('; ')}`),
    ],
  };
}

function categoryTable(figures: LocomoFigures): Table {
  const measured = split(figures).filter((adapter) => adapter.summary);
  const keys = Object.keys(figures.bm25);
  return {
    title: 'Recall@10 by category',
    columns: ['Category', 'Questions', ...measured.map((adapter) => adapter.label), 'BM25'],
    rows: keys.map((key) => [
      CATEGORY_NAMES[key] ?? key,
      String(figures.bm25[key]!.questions),
      ...measured.map((adapter) => f(adapter.summary![key]?.recall10 ?? Number.NaN, 3)),
      f(figures.bm25[key]!.recall10, 3),
    ]),
  };
}

function targetTable(figures: LocomoFigures): Table {
  const bm25 = figures.bm25.all!.recall10;
  const wanted = LOCOMO_TARGETS.recall10PointsOverBm25;
  const rows = LOCOMO_TARGETS.defaultAdapters.map((id) => {
    const adapter = figures.adapters.find((a) => a.id === id);
    const recall = adapter?.summary?.all?.recall10;
    if (recall === undefined) {
      return [adapter?.label ?? id, notMeasured(adapter?.reason), '', 'n/a'];
    }
    return [
      adapter!.label,
      `R@10 ${f(recall, 3)} vs BM25 ${f(bm25, 3)}: ${points(recall, bm25)} points`,
      `>= +${wanted} points`,
      // Rounded: 0.7 - 0.6 is 0.0999... in floating point.
      verdict(round((recall - bm25) * 100, 6) >= wanted),
    ];
  });
  const keyword = figures.adapters.find((a) => a.id === 'file-keyword')?.summary?.all;
  if (keyword) {
    rows.push(
      [
        'file keyword (default)',
        `R@10 ${f(keyword.recall10, 3)}`,
        `>= ${f(LOCOMO_TARGETS.recall10, 2)}`,
        verdict(round(keyword.recall10, 6) >= LOCOMO_TARGETS.recall10),
      ],
      [
        'file keyword (default)',
        `Hit@1 ${f(keyword.hit1, 3)}`,
        `>= ${f(LOCOMO_TARGETS.hit1, 2)}`,
        verdict(round(keyword.hit1, 6) >= LOCOMO_TARGETS.hit1),
      ],
    );
  }
  return {
    title: 'Target: the embedded default with no neural model',
    columns: ['Adapter', 'Figure', 'Target', 'Result'],
    rows,
    notes: [
      'The embedded default is the file backend: keyword search with no embedder configured, hybrid with the offline hash embedder.',
    ],
  };
}

/** Each adapter on the conversations the ranking was tuned on and on the ones held out of it. */
function partTable(figures: LocomoFigures): Table | undefined {
  const { tuned, heldOut } = figures.parts;
  if (tuned.length === 0 && heldOut.length === 0) return undefined;
  const row = (label: string, id: string) => {
    const part = figures.byPart[id];
    const cellsOf = (summary: MetricSummary | undefined) =>
      summary
        ? [String(summary.questions), f(summary.hit1, 3), f(summary.recall10, 3)]
        : ['', '', ''];
    return [label, ...cellsOf(part?.tuned), ...cellsOf(part?.heldOut)];
  };
  const measured = split(figures).filter((adapter) => figures.byPart[adapter.id]);
  return {
    title: 'By part of the split: tuned on, and held out of the tuning',
    columns: [
      'Adapter',
      'Tuned: questions',
      'Hit@1',
      'R@10',
      'Held out: questions',
      'Hit@1',
      'R@10',
    ],
    rows: [...measured.map((a) => row(a.label, a.id)), row('BM25 reference', 'bm25')],
    notes: [
      `Tuned on: ${tuned.join(', ') || 'none of these'}; held out: ${heldOut.join(', ') || 'none of these'}. The ranking constants (context, file and label weights, expansion weights) were chosen by looking at the tuned conversations only; a split of other conversations (\`--data\`) is all held out.`,
    ],
  };
}

function latencyRow(adapter: AdapterFigures): string[] {
  if (!adapter.search || !adapter.firstSearch) {
    return [adapter.label, notMeasured(adapter.reason), ''];
  }
  const first = adapter.firstSearch;
  return [
    adapter.label,
    `${f(first.p50, 0)} ms (max ${f(first.max, 0)} ms, ${first.n} conversation${first.n === 1 ? '' : 's'})`,
    `${f(adapter.search.p50, 2)} / ${f(adapter.search.p95, 2)} ms (${adapter.search.n} questions)`,
  ];
}

function latencyTable(figures: LocomoFigures): Table {
  const { qmd } = figures;
  const notes = [
    'Index build: the first search after the adds (for the engine adapters, a refresh plus one query, which builds the index: for hybrid ones, every chunk is embedded); for qmd, `createStore` + `update()` over the folder.',
    'Search: one question, in process (`cairn.search` through the engine; for qmd, `searchLex` in its Node 24 process, the code of `qmd search` without process start-up).',
  ];
  if (qmd.hits + qmd.emptyQuestions > 0) {
    notes.push(
      `qmd: ${qmd.emptyQuestions} questions returned nothing; ${qmd.hits} hits, ${qmd.unmappedHits} of them on a line outside any turn (Node ${qmd.node}).`,
    );
  }
  if (qmd.cliChecked) {
    notes.push(
      `qmd cross-check: ${qmd.cliSame} of ${qmd.cliChecked} questions gave the same files and lines through the real \`qmd search --json -n 10\` CLI as through the batch run.`,
      ...qmd.cliMismatches.slice(0, 3).map((line) => `Mismatch: ${line}`),
    );
  }
  return {
    title: 'Index build and search in process, by adapter',
    columns: ['Adapter', 'Index build per conversation (median)', 'Search p50 / p95'],
    rows: figures.adapters.map(latencyRow),
    notes,
  };
}

function conversationTable(figures: LocomoFigures): Table {
  const rows = figures.conversations.map((c) => [
    c.id,
    String(c.sessions),
    String(c.turns),
    String(c.created),
    String(c.duplicate),
    String(c.failed),
    String(c.questions),
    `${f(c.addMs / 1000, 2)} s (${f(c.addMs / Math.max(c.turns, 1), 1)} ms/turn)`,
  ]);
  const mapping = figures.conversations.reduce(
    (sum, c) => ({
      byMemoryId: sum.byMemoryId + c.mapping.byMemoryId,
      byLineRange: sum.byLineRange + c.mapping.byLineRange,
      unmapped: sum.unmapped + c.mapping.unmapped,
    }),
    { byMemoryId: 0, byLineRange: 0, unmapped: 0 },
  );
  const failures = figures.conversations.flatMap((c) => Object.entries(c.failedCodes));
  const unparsed = figures.conversations.reduce((sum, c) => sum + c.unparsedDates, 0);
  return {
    title: 'Per conversation: the workspace build',
    columns: [
      'Conversation',
      'Sessions',
      'Turns',
      'Stored',
      'Duplicates',
      'Failed',
      'Questions',
      'Build (all adds)',
    ],
    rows,
    notes: [
      'Duplicates: turns the engine matched to a memory already stored (exact or near duplicate); they are not stored, so their turns cannot be found.',
      `Engine hits mapped to turns (every adapter): ${mapping.byMemoryId} by memoryId, ${mapping.byLineRange} by line range (hits without a memoryId), ${mapping.unmapped} not a stored turn.`,
      ...(failures.length
        ? [`Failed adds by code: ${failures.map(([code, n]) => `${code} ${n}`).join(', ')}.`]
        : []),
      ...(unparsed
        ? [`${unparsed} session dates did not parse; those sessions used a fixed date.`]
        : []),
    ],
  };
}

export function locomoTables(figures: LocomoFigures): Table[] {
  const first = firstConversationTable(figures);
  const parts = partTable(figures);
  const tables = [
    qualityTable(figures),
    categoryTable(figures),
    targetTable(figures),
    ...(parts ? [parts] : []),
    ...(first ? [first] : []),
    latencyTable(figures),
    conversationTable(figures),
  ];
  if (figures.quick) {
    tables[0]!.notes!.unshift(
      'QUICK run: first conversation only; these figures are a smoke test, not results.',
    );
  }
  return tables;
}
