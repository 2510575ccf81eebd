import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cairn, type ContextPack, openCairn, type PackProfileName } from '@cairn/engine';
import { estimateTokenCount } from '@cairn/engine/internals';
import { PROJECT_NAME } from '../lived-in/lived-in-generator';
import { benchHook, type HookResult, hookCases } from '../lived-in/lived-in-hooks';
import { livedInProject } from '../lived-in/lived-in-project';
import { scratchCopy } from '../lived-in/project-copy';
import type { Section } from '../report';
import { resolveCairnBin } from '../scale/cli-bench';
import { runFixPatternQuality } from '../signatures/fix-pattern-quality';
import { distribution } from '../stats';
import {
  documentFiles,
  type LabelledRequest,
  labelledRequests,
  loadTopics,
  type Topic,
  UNANSWERED,
} from './injection-dataset';
import {
  type ExplainState,
  explainPack,
  explainState,
  explainTotals,
  labelledIds,
} from './injection-explain';
import {
  type ProfileFigures,
  type RequestScore,
  scoreInjection,
  summarize,
  type TopicItems,
} from './injection-measure';
import { type InjectionFigures, injectionTables, profileTable } from './injection-tables';

const HARNESSES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../harnesses');
const AGENT = 'claude-code';

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Each section's heading line (1-based), by `path#heading`: how an exclusion names it. */
function sectionLines(files: readonly { path: string; text: string }[]): Map<string, number> {
  const lines = new Map<string, number>();
  for (const file of files) {
    file.text.split('\n').forEach((line, index) => {
      const heading = /^##\s+(.+)$/.exec(line);
      if (heading) lines.set(`${file.path}#${heading[1]!.trim()}`, index + 1);
    });
  }
  return lines;
}

/** The dataset's units and documents added to a copy of the shortened lived-in project. */
async function seedProject(cairn: Cairn, rootDir: string, topics: readonly Topic[]) {
  for (const file of documentFiles(topics)) {
    await mkdir(dirname(join(rootDir, file.path)), { recursive: true });
    await writeFile(join(rootDir, file.path), file.text);
  }
  const items = new Map<string, TopicItems>();
  const guide = Math.ceil(topics.filter((t) => t.section).length / 2);
  let sectionIndex = 0;
  for (const topic of topics) {
    const added = await cairn.add({ text: topic.unit, review: 'approved' });
    if (added.action !== 'created')
      throw new Error(`unit of ${topic.key} not added: ${added.action}`);
    const entry: TopicItems = {
      unit: `unit ${added.memoryId}`,
      unitTokens: estimateTokenCount(topic.unit),
    };
    if (topic.section) {
      const file = sectionIndex < guide ? 'README.md' : 'docs/guide.md';
      sectionIndex += 1;
      entry.document = `document ${file}#${topic.section.heading}`;
      entry.documentTokens = estimateTokenCount(topic.section.body);
    }
    items.set(topic.key, entry);
  }
  return items;
}

interface Scored {
  scores: Map<PackProfileName, RequestScore[]>;
  packMs: number[];
  /** Set with `--explain`: each pack is explained against its labels. */
  observe?: (profile: PackProfileName, request: LabelledRequest, pack: ContextPack) => void;
}

/** Each request as a prompt of one session whose start already showed the heads. */
async function promptSubmit(
  cairn: Cairn,
  root: string,
  requests: readonly LabelledRequest[],
  items: Map<string, TopicItems>,
  budget: number,
  out: Scored,
) {
  const sessionKey = 'iq-prompts';
  await cairn.lifecycle.sessionStart({ agentId: AGENT, sessionKey, cwd: root });
  const scores: RequestScore[] = [];
  for (const request of requests) {
    const started = performance.now();
    const pack = await cairn.previewPack({
      profile: 'prompt-submit',
      agentId: AGENT,
      sessionKey,
      input: request.text,
    });
    out.packMs.push(performance.now() - started);
    scores.push(scoreInjection(pack.text, request, items, budget));
    out.observe?.('prompt-submit', request, pack);
  }
  out.scores.set('prompt-submit', scores);
}

/**
 * Each request as the state of a thread (its status, from a compaction
 * summary), then what a new session of that thread is shown at start,
 * after a compaction, and in the compaction prompt.
 */
async function threadProfiles(
  cairn: Cairn,
  root: string,
  requests: readonly LabelledRequest[],
  items: Map<string, TopicItems>,
  budget: number,
  out: Scored,
) {
  const profiles: PackProfileName[] = ['session-start', 'after-compaction', 'pre-compaction'];
  for (const profile of profiles) out.scores.set(profile, []);
  for (const [index, request] of requests.entries()) {
    const threadKey = `topic-iq-${index}`;
    const ids = { agentId: AGENT, sessionKey: `iq-thread-${index}` };
    await cairn.lifecycle.sessionStart({ ...ids, cwd: root, threadKey });
    await cairn.lifecycle.compactionComplete({ ...ids, summary: `## Status\n${request.text}` });
    for (const profile of profiles) {
      const pack = await cairn.previewPack({
        profile,
        agentId: AGENT,
        sessionKey: `iq-new-${index}`,
        threadKey,
      });
      out.scores.get(profile)!.push(scoreInjection(pack.text, request, items, budget));
      out.observe?.(profile, request, pack);
    }
  }
}

/** `cairn hook claude-code UserPromptSubmit` on the labelled project, answered by the hook server, beside bare node. */
async function hookLatency(
  root: string,
  requests: readonly LabelledRequest[],
  runs: number,
): Promise<HookResult> {
  const home = await mkdtemp(join(tmpdir(), 'cairn-bench-injection-home-'));
  try {
    const hook = hookCases(resolveCairnBin(), root, HARNESSES_DIR)[0]!;
    if (!('build' in hook))
      return { hook: hook.hook, promptSet: 'units', server: true, reason: hook.reason };
    const prompts = requests.filter((r) => r.topics.length > 0).map((r) => r.text);
    return benchHook(hook, 'units', prompts, home, runs, true);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function byPart(scores: ReadonlyMap<PackProfileName, RequestScore[]>) {
  const out: InjectionFigures['profiles'] = [];
  for (const [profile, all] of scores) {
    for (const part of ['tuned', 'paraphrased', 'held-out'] as const) {
      const figures: ProfileFigures = summarize(all.filter((s) => s.part === part));
      out.push({ profile, part, figures });
    }
  }
  return out;
}

/**
 * `pnpm bench injection`: what the hooks inject, judged against labels
 * (docs/BENCHMARKS.md "Injection quality"): the shortened lived-in
 * history plus the labelled dataset, every request through each profile
 * of the one pack pipeline, at the default budget.
 */
/** Every pack explained against its labels (`--explain`), for the file the option names. */
function explaining(
  topics: readonly Topic[],
  items: ReadonlyMap<string, TopicItems>,
  state: ExplainState,
): Scored['observe'] {
  const lines = sectionLines(documentFiles(topics));
  const rows = new Map(topics.map((topic) => [topic.key, topic]));
  return (profile, request, pack) => {
    // after-compaction is session start in a new epoch: the same packs.
    if (profile === 'after-compaction' || profile === 'pre-compaction') return;
    explainPack(state, profile, request, pack, labelledIds(request, items, lines, rows));
  };
}

/** The lived-in project to copy: the cached quick project, or `CAIRN_BENCH_PROJECT` (an explain run's shortcut). */
async function livedInRoot(): Promise<string> {
  const given = process.env.CAIRN_BENCH_PROJECT;
  if (given) return given;
  const lived = await livedInProject(true, log);
  return join(lived.entry.full, PROJECT_NAME);
}

/** An explain run: why each labelled item was missed, written to `file`; no latency, no docs. */
async function explainSection(
  file: string,
  state: ReturnType<typeof explainState>,
  out: Scored,
): Promise<Section> {
  const totals = explainTotals(state);
  await writeFile(file, `${[...state.lines, ...totals].join('\n')}\n`);
  log(totals.join('\n'));
  const packMs = distribution(out.packMs.slice(5));
  log(`prompt-submit pack p50 ${packMs.p50.toFixed(1)} ms, p95 ${packMs.p95.toFixed(1)} ms`);
  return {
    name: 'injection',
    title: 'Injection quality (explain run)',
    intro: [],
    tables: [profileTable(byPart(out.scores))],
    figures: {},
  };
}

export async function runInjection(options: {
  quick: boolean;
  /** A file to write why each labelled item was missed and each other item injected. */
  explain?: string;
}): Promise<Section> {
  const topics = loadTopics();
  const requests = labelledRequests(topics);
  // The lived-in history, shortened: the quick project's 60 sessions (cached).
  const copy = await scratchCopy(await livedInRoot());
  try {
    const cairn = await openCairn(copy.rootDir, { env: {} });
    const items = await seedProject(cairn, copy.rootDir, topics);
    const budget = cairn.settings.memory.contextBudgetTokens;
    const state = explainState();
    const out: Scored = {
      scores: new Map(),
      packMs: [],
      ...(options.explain ? { observe: explaining(topics, items, state) } : {}),
    };
    log(`injection: ${requests.length} requests through prompt-submit`);
    await promptSubmit(cairn, copy.rootDir, requests, items, budget, out);
    log(
      `injection: ${requests.length} thread states through session-start, after-compaction, pre-compaction`,
    );
    await threadProfiles(cairn, copy.rootDir, requests, items, budget, out);
    cairn.closeWorking();
    if (options.explain) return await explainSection(options.explain, state, out);
    log('injection: the prompt hook on the labelled project, beside bare node');
    const hook = await hookLatency(copy.rootDir, requests, options.quick ? 5 : 20);
    const figures: InjectionFigures = {
      topics: topics.length,
      sections: topics.filter((t) => t.section).length,
      requests: requests.length,
      budget,
      profiles: byPart(out.scores),
      packMs: distribution(out.packMs.slice(5)),
      hook,
      fixPatterns: await runFixPatternQuality(),
    };
    return {
      name: 'injection',
      title: 'Injection quality',
      intro: injectionIntro(figures),
      tables: injectionTables(figures),
      figures,
    };
  } finally {
    await copy.dispose();
  }
}

function injectionIntro(f: InjectionFigures): string[] {
  return [
    `What the hooks inject, judged against labels: the lived-in history shortened to its quick project (60 sessions of Claude Code, Codex and OpenCode, its units of invented words as distractors), plus a labelled dataset (\`bench/fixtures/injection-quality/topics.tsv\`) of ${f.topics} units and ${f.sections} document sections (README.md and docs/guide.md), each topic asked three ways, and ${UNANSWERED.length} requests nothing answers (${UNANSWERED.filter(([, part]) => part === 'paraphrased').length} of them in the paraphrased part, realistic prompts about other code and other tools that share ordinary words with the project's notes): ${f.requests} requests per profile, at the default budget of ${f.budget} tokens. Labels come from the dataset's rows (a request about a topic is answered by its unit and its section), never from the ranker. The first phrasing of each topic is the tuned part; the second is held out of any tuning; the third (\`paraphrased\`) was written later by someone who never saw the ranker, as a developer who knows the symptom and not the project's words would ask ("the progress handler never runs at all" for a unit that says \`onDownloadProgress\` needs \`Content-Length\`): it shares few words with what answers it, and measures how far recall by words reaches.`,
  ];
}
