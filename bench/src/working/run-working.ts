import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Section } from '../report';
import { generateWorkspace, type WorkspaceSpec } from '../scale/generate-workspace';
import { checkTarget, SCALE_SEED, scaleSpec, type TargetCheck } from '../scale/run-scale';
import { createTextGenerator } from '../scale/text-generator';
import { benchHead, type HeadBenchOptions, type HeadFigures } from './head-bench';
import { benchLifecycleCli, type LifecycleCliFigures } from './lifecycle-cli-bench';
import type { WorkingFigures } from './working-figures';
import { WORKING_TARGETS, workingTables } from './working-tables';

const HEAD_SEED = 20_250_202;

interface WorkingConfig {
  /** The small project the sessions run in: the lineage, not the workspace, is what grows. */
  project: WorkspaceSpec;
  head: HeadBenchOptions;
  cliRuns: number;
}

const FULL: WorkingConfig = {
  project: { units: 200, days: 5, rawBytes: 40_000, threads: 0 },
  head: { sessions: 1_000, threads: 20, measured: 20 },
  cliRuns: 20,
};

const QUICK: WorkingConfig = {
  project: { units: 200, days: 5, rawBytes: 40_000, threads: 0 },
  head: { sessions: 100, threads: 20, measured: 5 },
  cliRuns: 5,
};

function checkTargets(head: HeadFigures, cli: LifecycleCliFigures): TargetCheck[] {
  const check = checkTarget;
  return [
    check('MEMORY.md head tokens', head.head.tokens, head.head.budgetTokens),
    ...(cli.available
      ? [
          check(
            'user-prompt-submit / node, medians',
            cli.ratio,
            WORKING_TARGETS.promptCliMedianRatio,
          ),
          check('user-prompt-submit / node, p95s', cli.p95Ratio, WORKING_TARGETS.promptCliP95Ratio),
        ]
      : []),
  ];
}

const INTRO = [
  'Working memory through the lifecycle API. First, in process: a small generated project',
  '(the Scale generator, shrunk) is opened with `openCairn`, and sessions are driven through',
  '`lifecycle.sessionStart` (an explicit `topic-N` thread), one `userPromptSubmit` and `sessionEnd`,',
  'round-robin over the threads, before a few more sessions are timed. Prompts are short seeded',
  'clauses phrased as status, decisions, next steps, commitments and blockers, so the extractive',
  'summarizer fills the thread heads. Then `cairn lifecycle user-prompt-submit` runs as a whole',
  'process on the 10,000-unit Scale workspace, beside bare `node -e 0`, as `cairn search` is in the Scale section.',
].join(' ');

/** Head render with a long lineage, and the user-prompt-submit hook as a process. */
export async function runWorking(options: { quick: boolean }): Promise<Section> {
  const config = options.quick ? QUICK : FULL;
  const base = await mkdtemp(join(tmpdir(), 'cairn-bench-working-'));
  try {
    const homeDir = join(base, 'home');
    await mkdir(homeDir, { recursive: true });
    const headText = createTextGenerator(HEAD_SEED);
    const project = await generateWorkspace(join(base, 'project'), config.project, headText);
    log(
      `working: ${config.head.sessions} sessions over ${config.head.threads} threads, then ${config.head.measured} timed`,
    );
    const head = await benchHead(project.rootDir, homeDir, headText, config.head, log);

    const spec = scaleSpec(options.quick);
    log(`working: generating the ${spec.units}-unit Scale workspace`);
    const text = createTextGenerator(SCALE_SEED);
    const workspace = await generateWorkspace(join(base, 'scale'), spec, text);
    log(`working: ${config.cliRuns} interleaved runs of \`cairn lifecycle user-prompt-submit\``);
    const prompts = Array.from({ length: config.cliRuns + 2 }, text.query);
    const cli = benchLifecycleCli(workspace.rootDir, homeDir, prompts, config.cliRuns);

    const figures: WorkingFigures = {
      quick: options.quick,
      project: { units: project.units, files: project.files, rawKb: project.rawBytes / 1e3 },
      head,
      cliWorkspace: {
        files: workspace.files,
        units: workspace.units,
        totalMb: workspace.totalBytes / 1e6,
      },
      cli,
      targets: checkTargets(head, cli),
    };
    return {
      name: 'working',
      title: 'Working memory',
      intro: [INTRO],
      tables: workingTables(figures),
      figures,
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

export type { WorkingFigures } from './working-figures';
