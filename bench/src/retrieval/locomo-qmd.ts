import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import type { ConversationMemory } from '../locomo/cairn-memory';
import type { LocomoQuestion } from '../locomo/dataset';
import { scoreQuestion } from '../locomo/metrics';
import type { AdapterTally } from './locomo-adapters';
import type { Node24Tools } from './node24-tools';
import {
  parseQmdHits,
  type QmdHit,
  qmdAddCollection,
  qmdBatchSearch,
  qmdEnv,
  qmdHitPath,
  qmdSearchArgs,
} from './qmd-cli';

const COLLECTION = 'locomo';

/** How qmd did on the split beyond the metrics: empty answers and the CLI cross-check. */
export interface QmdLocomoExtras {
  /** Questions for which qmd returned nothing (its BM25 wants every term). */
  emptyQuestions: number;
  /** Hits whose line is not inside a stored turn (headings, markers). */
  unmappedHits: number;
  hits: number;
  indexMs: number[];
  /** Questions also run through the real `qmd search` CLI, and how many gave the same hits. */
  cliChecked: number;
  cliSame: number;
  cliMismatches: string[];
}

export function createQmdExtras(): QmdLocomoExtras {
  return {
    emptyQuestions: 0,
    unmappedHits: 0,
    hits: 0,
    indexMs: [],
    cliChecked: 0,
    cliSame: 0,
    cliMismatches: [],
  };
}

const hitKey = (hits: readonly QmdHit[]) => hits.map((hit) => `${hit.file}:${hit.line}`).join(' ');

/** Runs a few questions through `qmd search --json` and compares with the batch answers. */
function crossCheck(
  tools: Node24Tools,
  env: NodeJS.ProcessEnv,
  workspace: string,
  sample: { text: string; hits: QmdHit[] }[],
  extras: QmdLocomoExtras,
): void {
  qmdAddCollection(tools, env, workspace, COLLECTION);
  for (const { text, hits } of sample) {
    const run = spawnSync(tools.node, qmdSearchArgs(tools, text, COLLECTION), {
      env,
      encoding: 'utf8',
    });
    const cli = run.status === 0 ? hitKey(parseQmdHits(run.stdout)) : `exit ${run.status}`;
    extras.cliChecked += 1;
    if (cli === hitKey(hits)) extras.cliSame += 1;
    else
      extras.cliMismatches.push(`"${text}": CLI ${cli || '[]'} vs batch ${hitKey(hits) || '[]'}`);
  }
}

/**
 * qmd's BM25 search over one conversation's workspace folder: every
 * question answered by qmd's SDK in one Node 24 process (the code path of
 * `qmd search`), hits mapped to turns by their line; `cliSample`
 * questions are also asked through the real CLI as a check.
 */
export async function runQmdConversation(
  tools: Node24Tools,
  rootDir: string,
  memory: ConversationMemory,
  questions: readonly LocomoQuestion[],
  limit: number,
  state: { tally: AdapterTally; extras: QmdLocomoExtras; cliSample: number },
): Promise<void> {
  const { tally, extras } = state;
  if (tally.reason !== undefined) return;
  const home = join(rootDir, '.bench-qmd-home');
  await mkdir(home, { recursive: true });
  const env = qmdEnv(home);
  const workspace = memoryWorkspacePath(rootDir);
  try {
    const batch = await qmdBatchSearch(
      tools,
      env,
      {
        dbPath: join(home, 'batch.sqlite'),
        collection: COLLECTION,
        path: workspace,
        limit,
        queries: questions.map((question, i) => ({ id: String(i), text: question.question })),
      },
      home,
    );
    extras.indexMs.push(batch.indexMs);
    tally.firstMs.push(batch.indexMs);
    batch.results.forEach((result, i) => {
      const question = questions[i]!;
      tally.latencies.push(result.ms);
      if (result.hits.length === 0) extras.emptyQuestions += 1;
      const ranked = result.hits.map((hit) => {
        const path = qmdHitPath({ file: hit.file, line: hit.line }, COLLECTION);
        const dia = path && hit.line ? memory.diaIdAtLine(path, hit.line) : undefined;
        extras.hits += 1;
        if (!dia) extras.unmappedHits += 1;
        return dia;
      });
      tally.scored.push({
        category: question.category,
        scores: scoreQuestion(ranked, question.evidence),
      });
    });
    // Mostly questions qmd answered (most find nothing), and one that found nothing.
    const answered = batch.results.filter((result) => result.hits.length > 0);
    const empty = batch.results.filter((result) => result.hits.length === 0);
    const picked = [...answered.slice(0, state.cliSample - 1), ...empty.slice(0, 1)];
    const sample = picked.slice(0, state.cliSample).map((result) => ({
      text: questions[Number(result.id)]!.question,
      hits: result.hits.map((hit) => ({ file: hit.file, line: hit.line })),
    }));
    if (sample.length) crossCheck(tools, env, workspace, sample, extras);
  } catch (error) {
    tally.reason = `failed: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 240)}`;
  }
}
