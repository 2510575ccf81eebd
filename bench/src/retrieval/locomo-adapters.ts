import type { MemorySearchResult } from '@cairn/core';
import type { ConversationMemory } from '../locomo/cairn-memory';
import type { LocomoQuestion } from '../locomo/dataset';
import {
  type MetricSummary,
  type ScoredQuestion,
  scoreQuestion,
  summarize,
} from '../locomo/metrics';
import { type Distribution, distribution, timed } from '../stats';
import { ENGINE_ADAPTERS, type EngineAdapterSpec, openEngineAdapter } from './engine-adapters';

/** Everything one adapter produced over the split, conversation after conversation. */
export interface AdapterTally {
  id: string;
  label: string;
  /** Set when the adapter could not run (the first reason seen); its rows say so. */
  reason: string | undefined;
  scored: ScoredQuestion[];
  /** Per conversation: index refresh plus the first search (builds the index). */
  firstMs: number[];
  latencies: number[];
  warnings: Set<string>;
}

/** An adapter's figures over the split; `summary` is absent when it was not measured. */
export interface AdapterFigures {
  id: string;
  label: string;
  /** The questions it ran on: the whole split, or the first conversation's only. */
  scope: 'split' | 'first-conversation';
  available: boolean;
  /** Its metrics over the first conversation's questions, to compare with a first-only run. */
  firstConversation?: MetricSummary;
  reason?: string;
  summary?: Record<string, MetricSummary>;
  /** Per conversation, the index build or refresh plus the first query. */
  firstSearch?: Distribution;
  search?: Distribution;
  warnings: string[];
}

export function createTally(spec: { id: string; label: string }): AdapterTally {
  return {
    ...spec,
    reason: undefined,
    scored: [],
    firstMs: [],
    latencies: [],
    warnings: new Set(),
  };
}

export function tallyFigures(
  tally: AdapterTally,
  firstQuestions: number,
  scope: AdapterFigures['scope'] = 'split',
): AdapterFigures {
  const base = { id: tally.id, label: tally.label, scope, warnings: [...tally.warnings] };
  if (tally.reason !== undefined || tally.scored.length === 0) {
    return { ...base, available: false, reason: tally.reason ?? 'no question was searched' };
  }
  return {
    ...base,
    available: true,
    summary: summarize(tally.scored),
    firstConversation: summarize(tally.scored.slice(0, firstQuestions)).all,
    firstSearch: distribution(tally.firstMs),
    search: distribution(tally.latencies),
  };
}

type Search = (query: string) => Promise<MemorySearchResult[]>;

const FALLBACK = /file index|falling back|fell back/i;

async function scoreAll(
  search: Search,
  questions: readonly LocomoQuestion[],
  diaIdOf: (hit: MemorySearchResult) => string | undefined,
  tally: AdapterTally,
): Promise<void> {
  for (const question of questions) {
    const { value: hits, ms } = await timed(() => search(question.question));
    tally.latencies.push(ms);
    const ranked = hits.map(diaIdOf);
    tally.scored.push({
      category: question.category,
      scores: scoreQuestion(ranked, question.evidence),
    });
  }
}

/**
 * Runs every engine adapter over one conversation's workspace: open it with
 * the adapter's backend, refresh and search once (the index build), then
 * every question with limit `limit`. An adapter that failed on an earlier
 * conversation is not retried.
 */
export async function runEngineAdapters(
  rootDir: string,
  memory: ConversationMemory,
  questions: readonly LocomoQuestion[],
  tallies: Map<string, AdapterTally>,
  limit: number,
  specs: readonly EngineAdapterSpec[] = ENGINE_ADAPTERS,
): Promise<void> {
  for (const spec of specs) {
    let tally = tallies.get(spec.id);
    if (!tally) {
      tally = createTally(spec);
      tallies.set(spec.id, tally);
    }
    if (tally.reason !== undefined) continue;
    const opened = await openEngineAdapter(rootDir, spec, memory.openOptions);
    if (!opened.ok) {
      tally.reason = opened.reason;
      continue;
    }
    const { adapter } = opened;
    try {
      const first = await timed(async () => {
        await adapter.refresh();
        return adapter.search('what happened', limit);
      });
      tally.firstMs.push(first.ms);
      await scoreAll((query) => adapter.search(query, limit), questions, memory.diaIdOf, tally);
    } catch (error) {
      tally.reason = `failed: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 240)}`;
    } finally {
      for (const warning of adapter.warnings()) tally.warnings.add(warning);
      await adapter.close();
    }
    // A backend that answered from the file index measured `file`, not itself.
    const fallback = [...tally.warnings].find((warning) => FALLBACK.test(warning));
    if (fallback && tally.reason === undefined)
      tally.reason = `fell back: ${fallback.slice(0, 200)}`;
  }
}
