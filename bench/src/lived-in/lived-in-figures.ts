import { type Distribution, mean } from '../stats';
import type { Captured } from './lived-in-build';
import type { EventCostFigures } from './lived-in-events';
import type { HookResult } from './lived-in-hooks';
import type { LosslessFigures } from './lived-in-lossless';
import type { StorageFigures } from './lived-in-storage';

export interface BuildFigures {
  cached: boolean;
  builtAt: string;
  ms: number;
  /** Mean wall time a session took, over the first and the last `window` sessions. */
  window: number;
  firstMs: number;
  lastMs: number;
  /** Mean ms per session over each run of `window` sessions, in order. */
  curve: number[];
  failures: { count: number; first: string | undefined };
}

export interface LivedInFigures {
  quick: boolean;
  key: string;
  captured: Captured;
  capturedEarly: Captured;
  outputBytes: Distribution;
  outputsOver4000: number;
  build: BuildFigures;
  hooks: HookResult[];
  events: { early: EventCostFigures; full: EventCostFigures; p95Ratio: number };
  storage: { early: StorageFigures; full: StorageFigures };
  lossless: LosslessFigures;
}

export function buildWindow(
  sessionMs: readonly number[],
): Pick<BuildFigures, 'window' | 'firstMs' | 'lastMs' | 'curve'> {
  const window = Math.max(1, Math.min(100, Math.floor(sessionMs.length / 3)));
  const curve: number[] = [];
  for (let from = 0; from < sessionMs.length; from += window) {
    curve.push(Math.round(mean(sessionMs.slice(from, from + window))));
  }
  return {
    window,
    firstMs: mean(sessionMs.slice(0, window)),
    lastMs: mean(sessionMs.slice(-window)),
    curve,
  };
}
