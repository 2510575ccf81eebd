import { describe, expect, it } from 'vitest';
import { renderConsoleTable } from '../report';
import { distribution } from '../stats';
import type { CodingFigures } from './coding-figures';
import { codingTables } from './coding-tables';
import type { RankSummary } from './rank-metrics';

const summary = (hit1: number, hit3: number): RankSummary => ({
  questions: 10,
  hit1,
  hit3,
  mrr: (hit1 + hit3) / 2,
});

function figures(hit1: number, hit3: number): CodingFigures {
  const parts = {
    tune: summary(hit1, hit3),
    'held-out': summary(hit1 - 0.1, hit3),
    all: summary(hit1, hit3),
  };
  return {
    quick: false,
    units: 3,
    questions: { tune: 10, 'held-out': 10, all: 20 },
    addMs: 1200,
    adapters: [
      {
        id: 'file-keyword',
        label: 'file keyword (default)',
        available: true,
        byPart: parts,
        byKind: { synonym: summary(hit1, hit3) },
        buildMs: 40,
        search: distribution([1, 2, 3]),
        misses: [
          { question: 'who owns it', part: 'held-out', want: 'u05', rank: -1, first: 'u01' },
        ],
      },
      {
        id: 'file-model',
        label: 'file hybrid (local model)',
        available: false,
        reason: 'not run: set CAIRN_BENCH_MODEL_DIR',
      },
    ],
    bm25: { byPart: parts, byKind: { synonym: summary(0.5, 0.6) } },
  };
}

describe('coding-memory tables', () => {
  it('checks the Hit@1 and Hit@3 targets of the default on all questions and the held-out part', () => {
    const [quality, target, kinds, misses] = codingTables(figures(0.8, 0.9)).map(
      renderConsoleTable,
    );
    expect(target).toMatch(/all\s+Hit@1 0\.800\s+>= 0\.75\s+PASS/);
    expect(target).toMatch(/held out\s+Hit@1 0\.700\s+>= 0\.75\s+MISS/);
    expect(target).toMatch(/held out\s+Hit@3 0\.900\s+>= 0\.9\s+PASS/);
    expect(quality).toMatch(/file hybrid \(local model\)\s+not run: set CAIRN_BENCH_MODEL_DIR/);
    expect(quality).toMatch(/BM25 reference\s+held out\s+10\s+0\.700/);
    expect(kinds).toMatch(/synonym\s+10\s+0\.80 \/ 0\.90\s+0\.50 \/ 0\.60/);
    expect(misses).toMatch(/who owns it\s+held-out\s+u05\s+not in 10\s+u01/);
  });
});
