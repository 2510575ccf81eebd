import { join } from 'node:path';
import { loadTokenizer, openCairn, PACK_PLANES, retrieveContextPack } from '@cairn/engine';
import {
  type ContextPackSources,
  estimateTokenCount,
  type TokenCounter,
} from '@cairn/engine/internals';
import { MAIN_THREAD, PROJECT_NAME } from '../lived-in/lived-in-generator';
import { livedInProject } from '../lived-in/lived-in-project';
import { transcriptPrompts, unitPrompts } from '../lived-in/lived-in-prompts';
import { scratchCopy } from '../lived-in/project-copy';
import type { Section } from '../report';
import { distribution } from '../stats';
import { type BudgetCheck, PACK_BUDGET, type PackFigures } from './pack-figures';
import { BEADS_ISSUES, DOCUMENTS, writePackFixture } from './pack-fixture';
import { type BudgetRequest, budgetRequests, latencyQueries } from './pack-requests';
import { packTables } from './pack-tables';

const SEED = 14_009;
const AGENT = 'claude-code';
function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

async function measureLatency(sources: ContextPackSources, queries: string[]) {
  const total: number[] = [];
  const cpu: number[] = [];
  const items: number[] = [];
  const planeMs = new Map<string, number[]>();
  const planeStatus = new Map<string, Set<string>>();
  const planeCandidates = new Map<string, number>();
  for (const [index, query] of queries.entries()) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const pack = await retrieveContextPack(
      { query, agentId: AGENT, threadKey: MAIN_THREAD, budgetTokens: PACK_BUDGET },
      sources,
    );
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpuStarted);
    if (index < 5) continue; // warm-up: the first calls load modules and open stores
    total.push(ms);
    cpu.push((used.user + used.system) / 1000);
    items.push(pack.items.length);
    for (const report of pack.planes) {
      planeMs.set(report.plane, [...(planeMs.get(report.plane) ?? []), report.ms]);
      planeStatus.set(
        report.plane,
        (planeStatus.get(report.plane) ?? new Set()).add(report.status),
      );
      planeCandidates.set(
        report.plane,
        (planeCandidates.get(report.plane) ?? 0) + report.candidates,
      );
    }
  }
  const planes = PACK_PLANES.map((plane) => ({
    plane,
    status: [...(planeStatus.get(plane) ?? [])].join('/'),
    ms: distribution(planeMs.get(plane) ?? []),
    candidates: (planeCandidates.get(plane) ?? 0) / Math.max(total.length, 1),
  }));
  return { total: distribution(total), cpu: distribution(cpu), items: distribution(items), planes };
}

async function checkBudgets(
  sources: ContextPackSources,
  requests: BudgetRequest[],
  name: BudgetCheck['counter'],
  tokenizer: TokenCounter,
): Promise<BudgetCheck> {
  const check: BudgetCheck = {
    counter: name,
    requests: requests.length,
    overBudget: { estimate: 0, tokenizer: 0 },
    maxRatio: { estimate: 0, tokenizer: 0 },
    nonEmptyAtZero: 0,
    examples: [],
  };
  for (const request of requests) {
    const pack = await retrieveContextPack(
      { ...request, agentId: AGENT, threadKey: MAIN_THREAD },
      sources,
    );
    const estimate = estimateTokenCount(pack.text);
    const exact = tokenizer.count(pack.text);
    const budget = request.budgetTokens;
    if (budget === 0 && pack.text !== '') check.nonEmptyAtZero += 1;
    if (estimate > budget) check.overBudget.estimate += 1;
    if (exact > budget) check.overBudget.tokenizer += 1;
    if (budget > 0) {
      check.maxRatio.estimate = Math.max(check.maxRatio.estimate, estimate / budget);
      check.maxRatio.tokenizer = Math.max(check.maxRatio.tokenizer, exact / budget);
    }
    if ((estimate > budget || exact > budget) && check.examples.length < 5) {
      check.examples.push({
        budgetTokens: budget,
        estimate,
        tokenizer: exact,
        ...(request.planes ? { planes: request.planes } : {}),
        query:
          request.query === ''
            ? '(empty)'
            : `"${request.query.slice(0, 40)}" (${request.query.length} chars)`,
      });
    }
  }
  return check;
}

export async function measurePacks(quick: boolean): Promise<PackFigures> {
  const project = await livedInProject(quick, log);
  const copy = await scratchCopy(join(project.entry.full, PROJECT_NAME));
  try {
    await writePackFixture(copy.rootDir, SEED);
    const cairn = await openCairn(copy.rootDir);
    // PATH without bd: the planning plane reads the export, as on these machines.
    // The project's recall, as `cairn pack` passes it: the documents plane reads the docs through it.
    const base: ContextPackSources = {
      rootDir: copy.rootDir,
      settings: cairn.settings,
      search: cairn.search,
      recall: (query) => cairn.recall(query),
      env: { PATH: '' },
    };
    const count = quick ? 40 : 300;
    const pools = {
      units: unitPrompts(project.manifest.unitSamples, count, SEED),
      transcript: transcriptPrompts(project.manifest.mainThreadRareWords[AGENT], count, SEED),
    };
    log(`packs: ${count} queries at a ${PACK_BUDGET}-token budget`);
    const latency = await measureLatency(base, latencyQueries(pools, count + 5, SEED));
    const tokenizer = await loadTokenizer();
    const requests = budgetRequests(quick ? 100 : 1000, SEED);
    log(`packs: budget check, ${requests.length} requests with each counter`);
    const budget = [
      await checkBudgets(base, requests, 'estimate', tokenizer),
      await checkBudgets({ ...base, counter: tokenizer }, requests, 'o200k_base', tokenizer),
    ];
    return {
      budgetTokens: PACK_BUDGET,
      queries: count,
      beadsIssues: BEADS_ISSUES,
      documents: DOCUMENTS,
      documentsPlane: latency.planes.find((p) => p.plane === 'documents')?.status ?? 'off',
      ...latency,
      budget,
    };
  } finally {
    await copy.dispose();
  }
}

export async function runPacks(options: { quick?: boolean } = {}): Promise<Section> {
  const figures = await measurePacks(options.quick ?? false);
  return {
    name: 'packs',
    title: 'Context packs',
    intro: [
      `\`retrieveContextPack\` in process on a copy of the lived-in project (2,000 sessions, see Lived-in), with a generated ${BEADS_ISSUES}-issue Beads export (\`.beads/issues.jsonl\`: epics, parent-child and blocking dependencies) and ${DOCUMENTS} Markdown documents under \`docs/\`. Queries: words from units, transcript-only words, a named Beads issue, and vocabulary words, with the agent's main thread (so the history plane has summaries to read). The hook path's counter (the estimate, raised by its safety factor) costs the items.`,
    ],
    tables: packTables(figures, options.quick),
    figures,
  };
}
