import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Section } from '../report';
import { type Distribution, distribution, timed } from '../stats';
import { createBm25Index } from './bm25';
import {
  type BuildCounts,
  buildConversationMemory,
  type MappingCounts,
  turnText,
} from './cairn-memory';
import { type LocomoConversation, loadLocomo } from './dataset';
import { locomoTables } from './locomo-tables';
import { type MetricSummary, type ScoredQuestion, scoreQuestion, summarize } from './metrics';

const LIMIT = 10;
/** Categories with evidence in the conversation; 5 (adversarial) has no answer to find. */
const RECALL_CATEGORIES = new Set([1, 2, 3, 4]);

export interface ConversationFigures extends BuildCounts {
  id: string;
  sessions: number;
  questions: number;
  addMs: number;
  /** The first search after the adds (builds or refreshes the index). */
  firstSearchMs: number;
  search: Distribution;
  /** The first hybrid search (embeds every chunk with the hash embedder). */
  firstHybridSearchMs: number;
  hybridSearch: Distribution;
  mapping: MappingCounts;
}

export interface LocomoFigures {
  quick: boolean;
  data: string;
  conversations: ConversationFigures[];
  questions: {
    scored: number;
    adversarialSkipped: number;
    noEvidenceSkipped: number;
    droppedEvidenceIds: number;
  };
  cairn: Record<string, MetricSummary>;
  hybrid: Record<string, MetricSummary>;
  bm25: Record<string, MetricSummary>;
}

interface ConversationRun {
  figures: ConversationFigures;
  cairn: ScoredQuestion[];
  hybrid: ScoredQuestion[];
  bm25: ScoredQuestion[];
  noEvidence: number;
}

async function runConversation(
  conversation: LocomoConversation,
  rootDir: string,
): Promise<ConversationRun> {
  const memory = await buildConversationMemory(rootDir, conversation);
  const bm25 = createBm25Index(
    conversation.sessions.flatMap((session) =>
      session.turns.map((turn) => ({ id: turn.dia_id, text: turnText(session, turn) })),
    ),
  );
  const first = await timed(() => memory.cairn.search({ query: 'what happened', limit: LIMIT }));
  const firstHybrid = await timed(() =>
    memory.hybrid.search({ query: 'what happened', limit: LIMIT }),
  );
  const questions = conversation.questions.filter((q) => RECALL_CATEGORIES.has(q.category));
  const scored = questions.filter((q) => q.evidence.length > 0);
  const latencies: number[] = [];
  const hybridLatencies: number[] = [];
  const cairn: ScoredQuestion[] = [];
  const hybrid: ScoredQuestion[] = [];
  const reference: ScoredQuestion[] = [];
  for (const question of scored) {
    const { value: hits, ms } = await timed(() =>
      memory.cairn.search({ query: question.question, limit: LIMIT }),
    );
    latencies.push(ms);
    const ranked = hits.map((hit) => memory.diaIdOf(hit));
    cairn.push({ category: question.category, scores: scoreQuestion(ranked, question.evidence) });
    const fused = await timed(() =>
      memory.hybrid.search({ query: question.question, limit: LIMIT }),
    );
    hybridLatencies.push(fused.ms);
    const fusedRanked = fused.value.map((hit) => memory.diaIdOf(hit));
    hybrid.push({
      category: question.category,
      scores: scoreQuestion(fusedRanked, question.evidence),
    });
    const bm25Ranked = bm25.search(question.question, LIMIT).map((hit) => hit.id);
    reference.push({
      category: question.category,
      scores: scoreQuestion(bm25Ranked, question.evidence),
    });
  }
  const figures: ConversationFigures = {
    id: conversation.id,
    sessions: conversation.sessions.length,
    questions: scored.length,
    ...memory.counts,
    addMs: memory.addMs,
    firstSearchMs: first.ms,
    search: distribution(latencies),
    firstHybridSearchMs: firstHybrid.ms,
    hybridSearch: distribution(hybridLatencies),
    mapping: memory.mapping,
  };
  return { figures, cairn, hybrid, bm25: reference, noEvidence: questions.length - scored.length };
}

/** LoCoMo retrieval quality: Cairn through the engine beside plain BM25 over the same turns. */
export async function runLocomo(options: { dataPath: string; quick: boolean }): Promise<Section> {
  const all = await loadLocomo(options.dataPath);
  const conversations = options.quick ? all.slice(0, 1) : all;
  const runs: ConversationRun[] = [];
  for (const conversation of conversations) {
    const rootDir = await mkdtemp(join(tmpdir(), 'cairn-bench-locomo-'));
    try {
      process.stderr.write(`locomo: ${conversation.id}\n`);
      runs.push(await runConversation(conversation, rootDir));
    } finally {
      await rm(rootDir, { recursive: true, force: true });
    }
  }
  const questions = conversations.flatMap((c) => c.questions);
  const figures: LocomoFigures = {
    quick: options.quick,
    data: options.dataPath,
    conversations: runs.map((run) => run.figures),
    questions: {
      scored: runs.reduce((sum, run) => sum + run.cairn.length, 0),
      adversarialSkipped: questions.filter((q) => !RECALL_CATEGORIES.has(q.category)).length,
      noEvidenceSkipped: runs.reduce((sum, run) => sum + run.noEvidence, 0),
      droppedEvidenceIds: conversations.reduce((sum, c) => sum + c.droppedEvidence, 0),
    },
    cairn: summarize(runs.flatMap((run) => run.cairn)),
    hybrid: summarize(runs.flatMap((run) => run.hybrid)),
    bm25: summarize(runs.flatMap((run) => run.bm25)),
  };
  return {
    name: 'locomo',
    title: 'LoCoMo retrieval quality',
    intro: LOCOMO_INTRO,
    tables: locomoTables(figures),
    figures,
  };
}

const LOCOMO_INTRO = [
  [
    'Each conversation of the LoCoMo development split goes into its own workspace: every dialogue turn',
    'is one unit added through the engine (`openCairn(...).add`), text',
    '`[<session date>] <speaker>: <text>` plus `[image: <caption>]` when the turn shared one, with the',
    'clock pinned to the session date. Each question of categories 1-4 is searched with',
    '`cairn.search({ query: question, limit: 10 })` and the hits are mapped back to dia_ids.',
  ].join(' '),
  [
    'Metrics: Hit@1 (the top hit is an evidence turn), Recall@5 and Recall@10 (share of the evidence',
    'turns in the top k), NDCG@5 (binary relevance, ideal over min(|evidence|, 5)), averaged over',
    'questions. The reference is plain BM25 (k1 1.2, b 0.75, lowercase alphanumeric tokens, an English',
    'stop list) over the same turn texts, computed in the same run. Category 5 (adversarial) has no',
    'evidence and is left out. These are development figures: the held-back half of LoCoMo is not used.',
  ].join(' '),
];
