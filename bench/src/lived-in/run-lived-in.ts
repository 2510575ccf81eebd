import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Section } from '../report';
import { resolveCairnBin } from '../scale/cli-bench';
import { type EventCostFigures, replayEvents } from './lived-in-events';
import { buildWindow, type LivedInFigures } from './lived-in-figures';
import { PROJECT_NAME } from './lived-in-generator';
import { benchHook, type HookResult, hookCases, type PromptSet } from './lived-in-hooks';
import { checkLossless } from './lived-in-lossless';
import { type LivedInProject, livedInProject } from './lived-in-project';
import { transcriptPrompts, unitPrompts } from './lived-in-prompts';
import { measureStorage } from './lived-in-storage';
import { livedInTables } from './lived-in-tables';
import { scratchCopy } from './project-copy';

const HARNESSES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../harnesses');
const PROMPT_SEED = 4_242;

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** One hook on one prompt set, with the hook server or without. */
function measureHook(
  project: LivedInProject,
  hookCase: ReturnType<typeof hookCases>[number],
  promptSet: PromptSet,
  home: string,
  runs: number,
  server: boolean,
): HookResult {
  if (!('build' in hookCase))
    return { hook: hookCase.hook, promptSet, server, reason: hookCase.reason };
  const { manifest } = project;
  const count = runs + 3;
  const prompts =
    promptSet === 'units'
      ? unitPrompts(manifest.unitSamples, count, PROMPT_SEED)
      : transcriptPrompts(manifest.mainThreadRareWords[hookCase.agentId], count, PROMPT_SEED);
  if (prompts.length === 0) {
    const reason = `the project has no ${promptSet} prompts for ${hookCase.agentId}`;
    return { hook: hookCase.hook, promptSet, server, reason };
  }
  const mode = server ? 'the hook server' : 'its own process each';
  log(
    `lived-in: ${runs} interleaved runs of \`${hookCase.command}\` on ${promptSet} prompts, ${mode}`,
  );
  return benchHook(hookCase, promptSet, prompts, home, runs, server);
}

/**
 * Every hook on both prompt sets, on one copy of the finished project:
 * answered by the hook server (the default; the server starts with the
 * first event and lives in this run's HOME, removed at the end) and each
 * event in its own process (`CAIRN_HOOK_SERVER=off`).
 */
async function measureHooks(
  project: LivedInProject,
  rootDir: string,
  runs: number,
): Promise<HookResult[]> {
  const home = await mkdtemp(join(tmpdir(), 'cairn-bench-lived-in-home-'));
  try {
    const bin = resolveCairnBin();
    const results: HookResult[] = [];
    for (const hookCase of hookCases(bin, rootDir, HARNESSES_DIR)) {
      for (const promptSet of ['units', 'transcript'] as PromptSet[]) {
        for (const server of [true, false]) {
          results.push(measureHook(project, hookCase, promptSet, home, runs, server));
        }
      }
    }
    return results;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** Storage of both snapshots as cached, then Tier 3 read-back and the hooks on a copy of the last. */
async function measureFinished(project: LivedInProject, runs: number) {
  const { entry, world } = project;
  const storage = {
    early: await measureStorage(join(entry.early, PROJECT_NAME)),
    full: await measureStorage(join(entry.full, PROJECT_NAME)),
  };
  const copy = await scratchCopy(join(entry.full, PROJECT_NAME));
  try {
    log('lived-in: reading sampled tool outputs back from Tier 3');
    const lossless = checkLossless(copy.rootDir, world, 200);
    const hooks = await measureHooks(project, copy.rootDir, runs);
    return { storage, lossless, hooks };
  } finally {
    await copy.dispose();
  }
}

async function measureEvents(project: LivedInProject, replayed: number) {
  const { entry, manifest, world } = project;
  log(
    `lived-in: replaying ${replayed + 1} sessions after session ${manifest.spec.snapshotAt} and after session ${manifest.spec.sessions}, in turns`,
  );
  const [early, full] = (await replayEvents(
    [
      {
        rootDir: join(entry.early, PROJECT_NAME),
        sessionsBefore: manifest.spec.snapshotAt,
        endAt: manifest.earlyEndAt,
      },
      {
        rootDir: join(entry.full, PROJECT_NAME),
        sessionsBefore: manifest.spec.sessions,
        endAt: manifest.endAt,
      },
    ],
    world,
    replayed,
  )) as [EventCostFigures, EventCostFigures];
  return { early, full, p95Ratio: full.overall.p95 / early.overall.p95 };
}

function intro(project: LivedInProject): string {
  const { manifest } = project;
  const c = manifest.captured;
  const count = (value: number) => value.toLocaleString('en-US');
  const built = `${(manifest.buildMs / 60_000).toFixed(1)} min`;
  return [
    `Cairn where users live: a seeded year of use of one project (generator v${manifest.generatorVersion}, seed ${manifest.seed}),`,
    `${count(c.sessions)} sessions of Claude Code, Codex and OpenCode over the main branch, feature branches and two topic threads,`,
    `${count(c.units)} units filed, ${count(c.toolEvents)} tool events (Read, Bash, Edit, Grep and Glob outputs of 0.5 to 20 KB, log-normal),`,
    `${(c.totalBytes / 1e6).toFixed(1)} MB captured, the clock moving across the year;`,
    project.cached
      ? `taken from the cache (built ${manifest.builtAt.slice(0, 10)} in ${built}).`
      : `built in this run in ${built}.`,
    `Snapshots after session ${count(manifest.spec.snapshotAt)} and at the end are kept under \`bench/.cache/\`,`,
    'rebuilt when the generator or the built engine changes; every measure runs on a copy.',
  ].join(' ');
}

/**
 * `pnpm bench lived-in`: a seeded year of use (cached between runs), and
 * on copies of it the whole-process hooks, the in-process event cost early
 * and late in the year, the size of `.cairn/` and the Tier 3 read-back.
 */
export async function runLivedIn(options: { quick: boolean }): Promise<Section> {
  const project = await livedInProject(options.quick, log);
  const { manifest } = project;
  const { storage, lossless, hooks } = await measureFinished(project, options.quick ? 5 : 20);
  const events = await measureEvents(project, options.quick ? 5 : 30);
  const figures: LivedInFigures = {
    quick: options.quick,
    key: manifest.key,
    captured: manifest.captured,
    capturedEarly: manifest.capturedEarly,
    outputBytes: manifest.outputBytes,
    outputsOver4000: manifest.outputsOver4000,
    build: {
      cached: project.cached,
      builtAt: manifest.builtAt,
      ms: manifest.buildMs,
      ...buildWindow(manifest.sessionMs),
      failures: manifest.failures,
    },
    hooks,
    events,
    storage,
    lossless,
  };
  return {
    name: 'lived-in',
    title: 'Lived-in project',
    intro: [intro(project)],
    tables: livedInTables(figures),
    figures,
  };
}
