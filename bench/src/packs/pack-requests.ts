import { PACK_PLANES, type PackPlane } from '@cairn/engine';
import { createRandom, createTextGenerator } from '../scale/text-generator';
import { BEADS_ISSUES, beadsId } from './pack-fixture';

/** One generated request of the budget check. */
export interface BudgetRequest {
  query: string;
  budgetTokens: number;
  planes?: PackPlane[];
}

/** Budgets from tiny to large: 0-20, 20-200, 200-2,000 and 2,000-20,000 tokens, equally often. */
function budget(random: () => number): number {
  const decade = Math.floor(random() * 4);
  const low = decade === 0 ? 0 : 2 * 10 ** decade;
  return Math.floor(low + random() * (2 * 10 ** (decade + 1) - low));
}

function query(random: () => number, words: () => string, kind: number): string {
  if (kind === 0) return '';
  const some = (n: number) => Array.from({ length: n }, words).join(' ');
  if (kind === 1) return some(1 + Math.floor(random() * 6));
  if (kind === 2) return `work on ${beadsId(Math.floor(random() * BEADS_ISSUES))}: ${some(3)}`;
  // Huge: up to the request schema's 20,000 characters.
  return some(4000).slice(0, 1000 + Math.floor(random() * 19_000));
}

/** `count` seeded requests: random budgets, random plane subsets (or all), random queries. */
export function budgetRequests(count: number, seed: number): BudgetRequest[] {
  const random = createRandom(seed);
  const text = createTextGenerator(seed + 7);
  return Array.from({ length: count }, () => {
    const planes = PACK_PLANES.filter(() => random() < 0.6);
    const kind = Math.floor(random() * 4);
    return {
      query: query(random, () => text.word(), kind),
      budgetTokens: budget(random),
      ...(random() < 0.3 || planes.length === 0 ? {} : { planes }),
    };
  });
}

/** Latency queries: unit words, transcript words, a named Beads issue, or vocabulary words. */
export function latencyQueries(
  pools: { units: string[]; transcript: string[] },
  count: number,
  seed: number,
): string[] {
  const random = createRandom(seed);
  const text = createTextGenerator(seed + 3);
  return Array.from({ length: count }, (_, i) => {
    const kind = i % 4;
    const from = (list: string[]) => list[Math.floor(random() * list.length)] ?? text.query();
    if (kind === 0) return from(pools.units);
    if (kind === 1) return from(pools.transcript);
    if (kind === 2)
      return `continue ${beadsId(Math.floor(random() * BEADS_ISSUES))} ${text.query()}`;
    return text.query();
  });
}
