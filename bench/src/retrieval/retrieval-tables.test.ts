import { describe, expect, it } from 'vitest';
import { renderConsoleTable } from '../report';
import { distribution } from '../stats';
import type { ProcessFigures } from './cli-compare';
import { retrievalTables } from './retrieval-tables';
import type { RetrievalFigures } from './run-retrieval';

const processFigures = (ms: number[], emptyRuns = 0): ProcessFigures => ({
  ...distribution(ms),
  failedRuns: 0,
  firstFailure: undefined,
  emptyRuns,
});

function figures(qmdMs: number[]): RetrievalFigures {
  return {
    quick: false,
    sizes: [
      {
        units: 10_000,
        files: 101,
        chunks: 10_101,
        mb: 3.1,
        generationMs: 120,
        queries: 3,
        backends: [
          {
            id: 'file-keyword',
            label: 'file keyword',
            available: true,
            chunksWritten: 10_101,
            buildMs: 2000,
            chunksPerSecond: 5050.5,
            mbPerSecond: 1.55,
            search: distribution([2, 3, 4]),
            zeroHitQueries: 0,
            medianHits: 10,
            warnings: [],
          },
          { id: 'mem0', label: 'mem0', available: false, reason: 'too slow' },
        ],
      },
    ],
    cli: {
      available: true,
      units: 10_000,
      node: 'v24.21.0',
      runs: 3,
      qmdIndexMs: 900,
      bare: processFigures([40, 40, 40]),
      cairnStart: processFigures([70, 70, 70]),
      cairn: processFigures([100, 100, 100]),
      qmd: processFigures(qmdMs, 2),
      speedup: qmdMs[1]! / 100,
    },
  };
}

describe('retrieval tables', () => {
  it('prints PASS when qmd search takes at least 3x the time of cairn search', () => {
    const [, cli] = retrievalTables(figures([300, 300, 300]));
    const text = renderConsoleTable(cli!);
    expect(text).toMatch(/Cairn 3\.00x faster\s+>= 3x\s+PASS/);
    expect(text).toMatch(/2 found nothing/);
  });

  it('prints MISS below 3x and says which backends were not measured', () => {
    const [backends, cli] = retrievalTables(figures([250, 250, 250]));
    expect(renderConsoleTable(cli!)).toMatch(/Cairn 2\.50x faster\s+>= 3x\s+MISS/);
    const text = renderConsoleTable(backends!);
    expect(text).toMatch(/mem0\s+not measured: too slow/);
    expect(text).toMatch(/2\.00 s: 5,051 chunks\/s, 1\.55 MB\/s/);
  });

  it('says why the process comparison did not run', () => {
    const none = {
      ...figures([1, 1, 1]),
      cli: { available: false as const, reason: 'no Node 24', units: 10 },
    };
    expect(renderConsoleTable(retrievalTables(none)[1]!)).toMatch(/not measured: no Node 24/);
  });
});
