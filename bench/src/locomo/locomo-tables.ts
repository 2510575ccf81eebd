import { basename } from 'node:path';
import { formatNumber as f, type Table } from '../report';
import type { MetricSummary } from './metrics';
import type { LocomoFigures } from './run-locomo';

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

function qualityTable(figures: LocomoFigures): Table {
  const keys = ['all', ...Object.keys(figures.cairn).filter((key) => key !== 'all')];
  const rows = keys.map((key) => {
    const cairn = figures.cairn[key]!;
    const hybrid = figures.hybrid[key]!;
    const bm25 = figures.bm25[key]!;
    const cells = METRICS.flatMap(({ key: metric }) => [
      f(cairn[metric], 3),
      f(hybrid[metric], 3),
      f(bm25[metric], 3),
    ]);
    return [CATEGORY_NAMES[key] ?? key, String(cairn.questions), ...cells];
  });
  const { questions } = figures;
  const stored = figures.conversations.reduce((sum, c) => sum + c.created, 0);
  const turns = figures.conversations.reduce((sum, c) => sum + c.turns, 0);
  return {
    title:
      'Cairn search (file keyword, file hybrid with the hash embedder) vs BM25 reference (limit 10)',
    columns: [
      'Category',
      'Questions',
      ...METRICS.flatMap(({ label }) => [`${label} keyword`, `${label} hybrid`, `${label} BM25`]),
    ],
    rows,
    notes: [
      `${questions.scored} questions scored; left out: ${questions.adversarialSkipped} adversarial (category 5), ${questions.noEvidenceSkipped} with no usable evidence; ${questions.droppedEvidenceIds} malformed evidence entries dropped.`,
      stored === turns
        ? `Cairn stored all ${turns} turns; BM25 indexes the same ${turns}.`
        : `Cairn stored ${stored} of ${turns} turns (the rest were duplicates or failures, see below); BM25 indexes all ${turns}.`,
      `Data: ${basename(figures.data)}, ${figures.conversations.length} conversations (${figures.conversations.map((c) => c.id).join(', ')}).`,
    ],
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
    `${f(c.firstSearchMs, 1)} ms`,
    `${f(c.search.p50, 2)} / ${f(c.search.p95, 2)} ms`,
    `${f(c.firstHybridSearchMs, 1)} ms`,
    `${f(c.hybridSearch.p50, 2)} / ${f(c.hybridSearch.p95, 2)} ms`,
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
    title: 'Per conversation: build and search',
    columns: [
      'Conversation',
      'Sessions',
      'Turns',
      'Stored',
      'Duplicates',
      'Failed',
      'Questions',
      'Build (all adds)',
      'First search',
      'Search p50 / p95',
      'First hybrid search',
      'Hybrid p50 / p95',
    ],
    rows,
    notes: [
      'Duplicates: turns the engine matched to a memory already stored (exact or near duplicate); they are not stored, so their turns cannot be found.',
      `Hits mapped to turns: ${mapping.byMemoryId} by memoryId, ${mapping.byLineRange} by line range (hits without a memoryId), ${mapping.unmapped} not a stored turn.`,
      ...(failures.length
        ? [`Failed adds by code: ${failures.map(([code, n]) => `${code} ${n}`).join(', ')}.`]
        : []),
      ...(unparsed
        ? [`${unparsed} session dates did not parse; those sessions used a fixed date.`]
        : []),
      'First search: the first query after the adds, which builds or refreshes the index; the first hybrid search also embeds every chunk (hash embedder, stored beside the index).',
    ],
  };
}

export function locomoTables(figures: LocomoFigures): Table[] {
  const tables = [qualityTable(figures), conversationTable(figures)];
  if (figures.quick) {
    tables[0]!.notes!.unshift(
      'QUICK run: first conversation only; these figures are a smoke test, not results.',
    );
  }
  return tables;
}
