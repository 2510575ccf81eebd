import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeSearchIndexes } from '@cairn/backend-file';
import { openCairn } from '@cairn/engine';
import { createBm25Index } from '../locomo/bm25';
import type { Section } from '../report';
import {
  ENGINE_ADAPTERS,
  type EngineAdapter,
  type EngineAdapterSpec,
  localModelSpec,
  openEngineAdapter,
} from '../retrieval/engine-adapters';
import { distribution, timed } from '../stats';
import type { CodingAdapterFigures, CodingFigures } from './coding-figures';
import { type CodingSet, loadCodingSet } from './coding-set';
import { codingTables } from './coding-tables';
import { byKind, byPart, type RankedAnswer } from './rank-metrics';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/coding-memory');
/** Results asked for per question: Hit@1 and Hit@3 read the top, MRR the whole list. */
const LIMIT = 10;
const FALLBACK = /file index|falling back|fell back/i;

interface Workspace {
  rootDir: string;
  openOptions: { homeDir: string; overrides: { timezone: string } };
  unitOf: Map<string, string>;
  addMs: number;
}

/** The units stored through the engine, one `add` each, in the set's order. */
async function buildWorkspace(set: CodingSet): Promise<Workspace> {
  const rootDir = await mkdtemp(join(tmpdir(), 'cairn-bench-coding-'));
  const homeDir = join(rootDir, '.bench-home');
  await mkdir(homeDir, { recursive: true });
  const openOptions = { homeDir, overrides: { timezone: 'UTC' } };
  const cairn = await openCairn(rootDir, { ...openOptions, env: {} });
  await cairn.init();
  const unitOf = new Map<string, string>();
  const added = await timed(async () => {
    for (const unit of set.units) {
      const result = await cairn.add({ text: unit.text, category: unit.category });
      if (result.action !== 'created')
        throw new Error(`unit ${unit.id} not stored: ${result.action}`);
      unitOf.set(result.memoryId, unit.id);
    }
  });
  cairn.closeWorking();
  closeSearchIndexes();
  return { rootDir, openOptions, unitOf, addMs: added.ms };
}

/** Why a hybrid arm answered by keyword (its embedder failed), when it did. */
function embedderFailure(hits: Awaited<ReturnType<EngineAdapter['search']>>): string | undefined {
  const error = hits.find((hit) => hit.metadata?.embedderError)?.metadata?.embedderError;
  return error === undefined ? undefined : String(error);
}

async function measure(
  adapter: EngineAdapter,
  set: CodingSet,
  workspace: Workspace,
): Promise<CodingAdapterFigures> {
  const { spec } = adapter;
  const first = await timed(async () => {
    await adapter.refresh();
    return adapter.search(set.questions[0]!.question, LIMIT);
  });
  const failed = embedderFailure(first.value);
  if (failed)
    return { id: spec.id, label: spec.label, available: false, reason: `failed: ${failed}` };
  const answers: RankedAnswer[] = [];
  const latencies: number[] = [];
  for (const question of set.questions) {
    const { value: hits, ms } = await timed(() => adapter.search(question.question, LIMIT));
    latencies.push(ms);
    const ids = hits.map((hit) => (hit.memoryId ? workspace.unitOf.get(hit.memoryId) : undefined));
    answers.push({ question, rank: ids.indexOf(question.unit), first: ids[0] });
  }
  return {
    id: spec.id,
    label: spec.label,
    available: true,
    byPart: byPart(answers),
    byKind: byKind(answers),
    buildMs: first.ms,
    search: distribution(latencies),
    misses: answers
      .filter((a) => a.rank !== 0)
      .map((a) => ({
        question: a.question.question,
        part: a.question.part,
        want: a.question.unit,
        rank: a.rank,
        ...(a.first ? { first: a.first } : {}),
      })),
  };
}

async function runSpec(
  spec: EngineAdapterSpec,
  set: CodingSet,
  workspace: Workspace,
): Promise<CodingAdapterFigures> {
  const opened = await openEngineAdapter(workspace.rootDir, spec, workspace.openOptions);
  if (!opened.ok)
    return { id: spec.id, label: spec.label, available: false, reason: opened.reason };
  try {
    const figures = await measure(opened.adapter, set, workspace);
    const fallback = opened.adapter.warnings().find((warning) => FALLBACK.test(warning));
    if (fallback && figures.available) {
      return { ...figures, available: false, reason: `fell back: ${fallback.slice(0, 200)}` };
    }
    return figures;
  } catch (error) {
    const reason = `failed: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 240)}`;
    return { id: spec.id, label: spec.label, available: false, reason };
  } finally {
    await opened.adapter.close();
    closeSearchIndexes();
  }
}

function bm25Reference(set: CodingSet): CodingFigures['bm25'] {
  const index = createBm25Index(set.units.map((unit) => ({ id: unit.id, text: unit.text })));
  const answers = set.questions.map((question) => {
    const ids = index.search(question.question, LIMIT).map((hit) => hit.id);
    return { question, rank: ids.indexOf(question.unit), first: ids[0] };
  });
  return { byPart: byPart(answers), byKind: byKind(answers) };
}

/**
 * Coding memory: the set's units stored through the engine, each question
 * searched through every adapter (`cairn.search`, limit 10), beside plain
 * BM25 over the same unit texts.
 */
export async function runCodingMemory(options: { quick: boolean }): Promise<Section> {
  const set = await loadCodingSet(FIXTURES);
  const workspace = await buildWorkspace(set);
  const model = localModelSpec();
  const specs = options.quick ? ENGINE_ADAPTERS.slice(0, 2) : ENGINE_ADAPTERS;
  const adapters: CodingAdapterFigures[] = [];
  try {
    for (const spec of [...specs, ...('spec' in model ? [model.spec] : [])]) {
      process.stderr.write(`coding-memory: ${spec.id}\n`);
      adapters.push(await runSpec(spec, set, workspace));
    }
  } finally {
    await rm(workspace.rootDir, { recursive: true, force: true });
  }
  if ('reason' in model) {
    adapters.push({
      id: 'file-model',
      label: 'file hybrid (local model)',
      available: false,
      ...model,
    });
  }
  const count = (part: string) => set.questions.filter((q) => q.part === part).length;
  const figures: CodingFigures = {
    quick: options.quick,
    units: set.units.length,
    questions: { tune: count('tune'), 'held-out': count('held-out'), all: set.questions.length },
    addMs: workspace.addMs,
    adapters,
    bm25: bm25Reference(set),
  };
  return {
    name: 'coding-memory',
    title: 'Coding memory',
    intro: CODING_INTRO,
    tables: codingTables(figures),
    figures,
  };
}

const CODING_INTRO = [
  [
    'What a software team stores and asks later (bench/fixtures/coding-memory): 66 units of one invented',
    'project (decisions, conventions, gotchas, facts naming files, commands and identifiers) stored through',
    'the engine (`openCairn(...).add`), and 136 questions asked in other words (synonyms, abbreviations,',
    'split or joined identifiers, symptoms instead of causes), each labelled with the unit that answers it.',
    'Every question is searched with `cairn.search({ query, limit: 10 })` through each adapter (the hash',
    'embedder wherever vectors are used), and the labelled unit is looked for among the hits.',
  ].join(' '),
  [
    'Every third question is held out: no ranking constant was chosen by looking at those, and both parts',
    'are reported. Metrics: Hit@1 and Hit@3 (the unit is first, or in the first three), MRR (mean of',
    '1/rank over the ten results, 0 when absent). The reference is plain BM25 (k1 1.2, b 0.75, lowercase',
    'alphanumeric tokens, an English stop list) over the same unit texts, computed in the same run.',
  ].join(' '),
];
