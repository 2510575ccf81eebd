import { readFileSync } from 'node:fs';
import { idfWeights, judgePair, profileText } from '@cairn/engine/internals';

/**
 * Duplicate and contradiction detection on a hand-labelled set of unit
 * pairs (bench/fixtures/maintenance/unit-pairs.tsv): every third pair is
 * held out (not used to tune the detector's thresholds), the rest is the
 * development part. Precision and recall per label, for both parts.
 */
export type PairLabel = 'dup' | 'contra' | 'none';

export interface LabelledPair {
  label: PairLabel;
  a: string;
  b: string;
  heldOut: boolean;
}

export function readLabelledPairs(path: string): LabelledPair[] {
  const pairs: LabelledPair[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [label, a, b] = line.split('\t');
    if ((label !== 'dup' && label !== 'contra' && label !== 'none') || !a || !b) {
      throw new Error(`bad labelled pair: ${line.slice(0, 80)}`);
    }
    pairs.push({ label, a, b, heldOut: pairs.length % 3 === 2 });
  }
  return pairs;
}

export interface DetectionScore {
  part: 'development' | 'held-out';
  label: 'dup' | 'contra';
  pairs: number;
  positives: number;
  precision: number;
  recall: number;
}

const verdictLabel = (kind: string): PairLabel =>
  kind === 'duplicate' ? 'dup' : kind === 'contradiction' ? 'contra' : 'none';

/** Scores the detector on each part; IDF weights come from every text of the set (as from a workspace). */
export function scorePairs(pairs: readonly LabelledPair[]): {
  scores: DetectionScore[];
  mistakes: { pair: LabelledPair; predicted: PairLabel }[];
} {
  const profiles = new Map<string, ReturnType<typeof profileText>>();
  const profile = (text: string) => {
    const found = profiles.get(text) ?? profileText(text);
    profiles.set(text, found);
    return found;
  };
  for (const pair of pairs) {
    profile(pair.a);
    profile(pair.b);
  }
  const weight = idfWeights([...profiles.values()]);
  const predicted = pairs.map((pair) =>
    verdictLabel(judgePair(profile(pair.a), profile(pair.b), weight).kind),
  );
  const scores: DetectionScore[] = [];
  for (const part of ['development', 'held-out'] as const) {
    for (const label of ['dup', 'contra'] as const) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      pairs.forEach((pair, i) => {
        if ((part === 'held-out') !== pair.heldOut) return;
        const said = predicted[i] === label;
        const truth = pair.label === label;
        if (said && truth) tp += 1;
        else if (said) fp += 1;
        else if (truth) fn += 1;
      });
      scores.push({
        part,
        label,
        pairs: pairs.filter((p) => (part === 'held-out') === p.heldOut).length,
        positives: tp + fn,
        precision: tp + fp === 0 ? 1 : tp / (tp + fp),
        recall: tp + fn === 0 ? 1 : tp / (tp + fn),
      });
    }
  }
  const mistakes = pairs
    .map((pair, i) => ({ pair, predicted: predicted[i]! }))
    .filter(({ pair, predicted: p }) => p !== pair.label);
  return { scores, mistakes };
}
