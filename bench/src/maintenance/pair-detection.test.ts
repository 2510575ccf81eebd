import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readLabelledPairs, scorePairs } from './pair-detection';
import { PRECISION_TARGET, RECALL_TARGET } from './run-maintenance-bench';

const PAIRS = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/maintenance/unit-pairs.tsv',
);

describe('the labelled unit pairs', () => {
  it('hold at least 200 pairs, 50 or more of each label, a third of them held out', () => {
    const pairs = readLabelledPairs(PAIRS);
    expect(pairs.length).toBeGreaterThanOrEqual(200);
    for (const label of ['dup', 'contra', 'none'] as const) {
      expect(pairs.filter((p) => p.label === label).length).toBeGreaterThanOrEqual(50);
    }
    expect(pairs.filter((p) => p.heldOut).length).toBe(Math.floor(pairs.length / 3));
  });

  it('the detector meets the target on the development and the held-out part', () => {
    for (const score of scorePairs(readLabelledPairs(PAIRS)).scores) {
      expect(score.precision, `${score.part} ${score.label}`).toBeGreaterThanOrEqual(
        PRECISION_TARGET,
      );
      expect(score.recall, `${score.part} ${score.label}`).toBeGreaterThanOrEqual(RECALL_TARGET);
    }
  });
});
