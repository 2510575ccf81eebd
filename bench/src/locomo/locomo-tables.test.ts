import { describe, expect, it } from 'vitest';
import { renderConsoleTable } from '../report';
import { distribution } from '../stats';
import { locomoTables } from './locomo-tables';
import type { MetricSummary } from './metrics';
import type { LocomoFigures } from './run-locomo';

const summary = (recall10: number): Record<string, MetricSummary> => ({
  all: { questions: 10, hit1: 0.5, recall5: 0.5, recall10, ndcg5: 0.5 },
  '4': { questions: 10, hit1: 0.5, recall5: 0.5, recall10, ndcg5: 0.5 },
});

function figures(keyword: number, hybrid: number): LocomoFigures {
  const measured = (id: string, recall10: number) => ({
    id,
    label: id,
    scope: 'split' as const,
    available: true,
    summary: summary(recall10),
    firstSearch: distribution([50]),
    search: distribution([1, 2, 3]),
    warnings: [],
  });
  return {
    quick: false,
    data: '/data/locomo-dev.json',
    conversations: [],
    questions: { scored: 10, adversarialSkipped: 0, noEvidenceSkipped: 0, droppedEvidenceIds: 0 },
    adapters: [
      measured('file-keyword', keyword),
      measured('file-hybrid', hybrid),
      {
        id: 'mem0',
        label: 'mem0',
        scope: 'split',
        available: false,
        reason: 'not installed',
        warnings: [],
      },
    ],
    qmd: {
      emptyQuestions: 7,
      unmappedHits: 1,
      hits: 5,
      indexMs: [10],
      cliChecked: 2,
      cliSame: 2,
      cliMismatches: [],
      node: 'v24.21.0',
    },
    bm25: summary(0.6),
    bm25FirstConversation: undefined,
    parts: { tuned: ['conv-26'], heldOut: ['conv-42'] },
    byPart: {
      'file-keyword': { tuned: summary(keyword).all!, heldOut: summary(keyword - 0.1).all! },
      bm25: { tuned: summary(0.6).all! },
    },
  };
}

describe('LoCoMo tables', () => {
  it('checks the +10 points Recall@10 target for both file modes against BM25', () => {
    const tables = locomoTables(figures(0.7, 0.69));
    const target = renderConsoleTable(tables.find((t) => t.title.startsWith('Target'))!);
    expect(target).toMatch(
      /file-keyword\s+R@10 0\.700 vs BM25 0\.600: \+10\.0 points\s+>= \+10 points\s+PASS/,
    );
    expect(target).toMatch(/file-hybrid .*\+9\.0 points .*MISS/);
    expect(target).toMatch(/R@10 0\.700\s+>= 0\.80\s+MISS/);
    expect(target).toMatch(/Hit@1 0\.500\s+>= 0\.50\s+PASS/);
    const parts = renderConsoleTable(tables.find((t) => t.title.startsWith('By part'))!);
    expect(parts).toMatch(/file-keyword\s+10\s+0\.500\s+0\.700\s+10\s+0\.500\s+0\.600/);
    expect(parts).toMatch(/BM25 reference\s+10\s+0\.500\s+0\.600\s*$/m);
  });

  it('prints adapters that did not run as not measured, with BM25 last', () => {
    const [quality, , , , latency] = locomoTables(figures(0.5, 0.5));
    const text = renderConsoleTable(quality!);
    expect(text).toMatch(/mem0\s+not measured: not installed/);
    expect(quality!.rows.at(-1)![0]).toBe('BM25 reference');
    expect(text).toMatch(/file-keyword\s+10\s+0\.500\s+0\.500\s+0\.500\s+0\.500\s+-10\.0/);
    const notes = renderConsoleTable(latency!);
    expect(notes).toMatch(/7 questions returned nothing/);
  });
});
