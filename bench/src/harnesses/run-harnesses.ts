import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HarnessAdapter } from '@cairn/core';
import { createOpenclawHarness } from '@cairn/harness-openclaw';
import { createOpencodeHarness } from '@cairn/harness-opencode';
import { formatNumber as f, type Section, type Table, verdict } from '../report';
import { resolveCairnBin } from '../scale/cli-bench';
import { generateWorkspace } from '../scale/generate-workspace';
import { SCALE_SEED, scaleSpec } from '../scale/run-scale';
import { createTextGenerator } from '../scale/text-generator';
import type { Distribution } from '../stats';
import { benchHookProcess, type HookProcessFigures, promptFixture } from './hook-process-bench';
import { benchInProcess, type InProcessFigures } from './in-process-bench';

const HARNESSES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../harnesses');
export const HOOK_TARGETS = { medianRatio: 2, p95Ratio: 3 } as const;
const pair = (d: Distribution) => `${f(d.p50, 2)} / ${f(d.p95, 2)} ms`;

type ProcessResult = HookProcessFigures | { harness: string; reason: string };

function processTable(results: ProcessResult[]): Table {
  const rows = results.flatMap((r): string[][] => {
    if (!('ratio' in r)) return [[r.harness, `not measured: ${r.reason}`, '', 'n/a']];
    const failed = r.failedRuns ? `; ${r.failedRuns} runs failed (${r.firstFailure})` : '';
    return [
      [`${r.harness}: bare \`node -e 0\` (p50 / p95, ${r.runs} runs)`, pair(r.node), '', ''],
      [
        `${r.harness}: \`cairn hook ${r.harness} ${r.hookEvent}\` (p50 / p95, interleaved)`,
        `${pair(r.hook)}${failed}`,
        '',
        '',
      ],
      [
        `${r.harness}: hook / bare node (medians)`,
        `${f(r.ratio, 2)}x`,
        `<= ${HOOK_TARGETS.medianRatio}x`,
        verdict(r.ratio <= HOOK_TARGETS.medianRatio),
      ],
      [
        `${r.harness}: hook / bare node (p95s)`,
        `${f(r.p95Ratio, 2)}x`,
        `<= ${HOOK_TARGETS.p95Ratio}x`,
        verdict(r.p95Ratio <= HOOK_TARGETS.p95Ratio),
      ],
    ];
  });
  return {
    title: 'Prompt-submit hook as a whole process (Claude Code, Codex)',
    columns: ['Measure', 'Figure', 'Target', 'Result'],
    rows,
    notes: [
      "The payload is the harness's recorded UserPromptSubmit (from its e2e fixtures), with a new session id per run, the bench project as cwd and a 1-4 word generator query as the prompt, piped to `cairn hook <harness> UserPromptSubmit --root <root> --json` on the 10,000-unit Scale workspace.",
      'A run counts when it exits 0, prints JSON with `ok: true` and reached `user-prompt-submit`; one probe and two warm-up rounds are not counted.',
    ],
  };
}

function inProcessTable(results: InProcessFigures[]): Table {
  return {
    title: 'Time added per event inside the harness process (OpenCode, OpenClaw)',
    columns: ['Harness', 'Event (harness hook)', 'p50 / p95', 'Samples'],
    rows: results.flatMap((r) =>
      r.events.map((e) => [
        r.harness,
        `${e.event} (\`${e.hookEvent}\`)`,
        pair(e.ms),
        String(e.ms.n),
      ]),
    ),
    notes: [
      "Each recorded session (the package's e2e fixtures) is replayed through the adapter's `deliver` (what the plugin calls) against the 10,000-unit Scale workspace, with a new session id per round; the first round is a warm-up.",
      "Session end includes the summary node, condensation and the re-render of the thread head and this clone's head.",
    ],
  };
}

/** What both kinds of harness bench run over: the Scale workspace, its home and its prompts. */
interface HarnessBench {
  rootDir: string;
  homeDir: string;
  prompts: string[];
  runs: number;
  quick: boolean;
}

/** Claude Code and Codex: `cairn hook` as a process per event, beside bare node. */
function benchProcessHarnesses(bench: HarnessBench): ProcessResult[] {
  const bin = resolveCairnBin();
  const results: ProcessResult[] = [];
  for (const harness of ['claude-code', 'codex']) {
    const fixture = promptFixture(join(HARNESSES_DIR, harness));
    if (!fixture) {
      results.push({ harness, reason: 'no recorded userPromptSubmit fixture' });
      continue;
    }
    const { rootDir, homeDir, prompts, runs } = bench;
    results.push(benchHookProcess({ bin, harness, fixture, rootDir, homeDir, prompts, runs }));
  }
  return results;
}

/** OpenCode and OpenClaw: recorded sessions replayed through the adapter in this process. */
async function benchInProcessHarnesses(bench: HarnessBench): Promise<InProcessFigures[]> {
  const adapters: [string, HarnessAdapter][] = [
    ['opencode', createOpencodeHarness()],
    ['openclaw', createOpenclawHarness()],
  ];
  const results: InProcessFigures[] = [];
  for (const [harness, adapter] of adapters) {
    results.push(
      await benchInProcess({
        harness,
        adapter,
        harnessDir: join(HARNESSES_DIR, harness),
        rootDir: bench.rootDir,
        rounds: bench.quick ? 3 : 11,
      }),
    );
  }
  return results;
}

/** Each harness's hooks at the 10k-unit scale: as a process where they are one, in process otherwise. */
export async function runHarnesses(options: { quick: boolean }): Promise<Section> {
  const base = await mkdtemp(join(tmpdir(), 'cairn-bench-harnesses-'));
  try {
    const homeDir = join(base, 'home');
    await mkdir(homeDir, { recursive: true });
    const text = createTextGenerator(SCALE_SEED);
    const workspace = await generateWorkspace(join(base, 'scale'), scaleSpec(options.quick), text);
    const runs = options.quick ? 5 : 20;
    const prompts = Array.from({ length: runs + 4 }, text.query);
    const bench = { rootDir: workspace.rootDir, homeDir, prompts, runs, quick: options.quick };
    const processResults = benchProcessHarnesses(bench);
    const inProcess = await benchInProcessHarnesses(bench);
    return {
      name: 'harnesses',
      title: 'Harness hooks',
      intro: [
        'Cost of Cairn in each harness at the Scale size: Claude Code and Codex start `cairn hook` as a process per event; OpenCode and OpenClaw run Cairn inside their own process.',
      ],
      tables: [processTable(processResults), inProcessTable(inProcess)],
      figures: {
        processResults,
        inProcess,
        workspace: { units: workspace.units, files: workspace.files },
      },
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
