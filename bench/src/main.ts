import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCodingMemory } from './coding-memory/run-coding-memory';
import { COMPARE_USAGE, parseCompareOptions } from './compare/compare-args';
import { runCompare } from './compare/run-compare';
import { runHarnesses } from './harnesses/run-harnesses';
import { runInjection } from './injection/run-injection';
import { runLivedIn } from './lived-in/run-lived-in';
import { runLocomo } from './locomo/run-locomo';
import { runMaintenanceBench } from './maintenance/run-maintenance-bench';
import { runPacks } from './packs/run-packs';
import {
  collectMeta,
  MEASURED_SECTIONS,
  renderConsoleTable,
  type Section,
  type SectionName,
  writeBenchmarksDoc,
  writeJsonReport,
} from './report';
import { runRetrieval } from './retrieval/run-retrieval';
import { runScale } from './scale/run-scale';
import { runSignatures } from './signatures/run-signatures';
import { UsageError } from './usage-error';
import { runWorking } from './working/run-working';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** shared/ sits beside the repository (a clean clone keeps the dataset outside it). */
const DEFAULT_DATA = join(dirname(REPO_ROOT), 'shared/bench/locomo/locomo-dev.json');
const DOC_PATH = join(REPO_ROOT, 'docs/BENCHMARKS.md');
const TARGETS = [...MEASURED_SECTIONS, 'all'] as const;
type Target = (typeof TARGETS)[number];

const USAGE = `Usage: pnpm bench [scale|working|harnesses|lived-in|retrieval|locomo|coding-memory|signatures|packs|maintenance|injection|all] [--data <file.json>] [--json <out.json>] [--quick]
       pnpm bench compare --before <dir> [section ...]   (pnpm bench compare --help)

  scale     index build, refresh and search over a generated 10,000-unit workspace,
            and \`cairn search\` beside bare node
  working   session end (head render) with 1,000 sessions in the lineage, and
            \`cairn lifecycle user-prompt-submit\` beside bare node
  harnesses each harness's prompt-submit hook as a process (Claude Code, Codex) beside
            bare node, and the time added per event in process (OpenCode, OpenClaw)
  lived-in  a seeded year of use (2,000 sessions, cached under bench/.cache/): every
            prompt hook beside bare node, in-process event cost at session 100 and
            2,000, the size of .cairn/ against the bytes captured, and Tier 3 read back
  retrieval index build and in-process search of each backend (file, lancedb, mem0) at
            10,000 and 100,000 chunks, and \`cairn search\` beside \`qmd search\` on Node 24
  locomo    retrieval quality of every adapter on the LoCoMo development split, beside
            BM25 and qmd's search
  coding-memory  Hit@1, Hit@3 and MRR of every adapter on a set of coding-team memories
            asked about in other words (bench/fixtures/coding-memory), beside BM25
  signatures error signatures over a corpus of real tool failures (bench/fixtures/failures):
            same-fix pairs joined, different-fix pairs kept apart
  packs     retrieveContextPack on the lived-in project with a 500-issue Beads export and
            200 documents (p50/p95, each plane), and 1,000 generated requests' budgets
  maintenance one insight extraction run on the lived-in project and a year of daily runs
            (sizes against budgets), duplicate/contradiction detection on labelled pairs,
            and staleness of code anchors on a scripted git history
  injection what each hook profile injects, judged against a labelled dataset: precision,
            recall, requests nothing answers, repeats, artifacts, unused budget, latency
  all       every one of them (default)
  compare   each section in another checkout (--before <dir>), then in this one, one after
            the other; writes the figures side by side (pnpm bench compare --help)

  --data <file>   LoCoMo JSON (default: ${DEFAULT_DATA})
  CAIRN_BENCH_MODEL_DIR=<dir>  also measure a local semantic model (locomo, coding-memory)
  --json <file>   also write every figure as JSON
  --quick         small sizes for a smoke test; does not write docs/BENCHMARKS.md
  CAIRN_BENCH_NO_DOC=1  does not write docs/BENCHMARKS.md either (the figures and tables go
            to --json only; how compare runs this checkout's sections)
  --explain <file>  injection only: write why each labelled item of the tuned requests was
            left out and each other item injected (held-out: totals only); skips the
            latency and fix-pattern parts, does not write docs/BENCHMARKS.md
            (CAIRN_BENCH_PROJECT=<dir>: a lived-in project to copy instead of the cache)`;

interface Options {
  target: Target;
  dataPath: string;
  jsonPath: string | undefined;
  quick: boolean;
  explain: string | undefined;
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      // pnpm may forward a literal `--` before the script's arguments.
      args: argv.filter((arg) => arg !== '--'),
      options: {
        data: { type: 'string' },
        json: { type: 'string' },
        explain: { type: 'string' },
        quick: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseOptions(argv: string[]): Options | undefined {
  const { values, positionals } = parseCommandLine(argv);
  if (values.help) return undefined;
  const target = positionals[0] ?? 'all';
  if (positionals.length > 1 || !TARGETS.includes(target as Target)) {
    throw new UsageError(
      `unknown bench "${positionals.join(' ')}": expected one of ${TARGETS.join(', ')}`,
    );
  }
  // pnpm runs the script in bench/; paths the user typed are relative to where they typed them.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  return {
    target: target as Target,
    dataPath: values.data ? resolve(cwd, values.data) : DEFAULT_DATA,
    jsonPath: values.json ? resolve(cwd, values.json) : undefined,
    quick: values.quick ?? false,
    explain: values.explain ? resolve(cwd, values.explain) : undefined,
  };
}

async function compare(argv: string[]): Promise<void> {
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const options = parseCompareOptions(argv, { cwd, dataPath: DEFAULT_DATA });
  if (!options) {
    process.stdout.write(`${COMPARE_USAGE}\n`);
    return;
  }
  await runCompare(options, { repoRoot: REPO_ROOT, docPath: DOC_PATH });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2).filter((arg) => arg !== '--');
  if (argv[0] === 'compare') return compare(argv.slice(1));
  const options = parseOptions(argv);
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const meta = collectMeta(REPO_ROOT, options.quick);
  if (options.quick)
    process.stdout.write('QUICK run: sizes are shrunk; docs/BENCHMARKS.md is not written.\n');
  const sections: Section[] = [];
  const run = async (bench: () => Promise<Section>) => {
    const section = await bench();
    sections.push(section);
    process.stdout.write(`\n${section.tables.map(renderConsoleTable).join('\n\n')}\n`);
  };
  const started = performance.now();
  const wanted = (name: SectionName) => options.target === 'all' || options.target === name;
  if (wanted('scale')) await run(() => runScale({ quick: options.quick }));
  if (wanted('working')) await run(() => runWorking({ quick: options.quick }));
  if (wanted('harnesses')) await run(() => runHarnesses({ quick: options.quick }));
  if (wanted('lived-in')) await run(() => runLivedIn({ quick: options.quick }));
  if (wanted('retrieval')) await run(() => runRetrieval({ quick: options.quick }));
  if (wanted('locomo')) {
    await run(() => runLocomo({ dataPath: options.dataPath, quick: options.quick }));
  }
  if (wanted('coding-memory')) await run(() => runCodingMemory({ quick: options.quick }));
  if (wanted('signatures')) await run(() => runSignatures({ quick: options.quick }));
  if (wanted('packs')) await run(() => runPacks({ quick: options.quick }));
  if (wanted('maintenance')) await run(() => runMaintenanceBench({ quick: options.quick }));
  if (wanted('injection')) {
    await run(() =>
      runInjection({
        quick: options.quick,
        ...(options.explain ? { explain: options.explain } : {}),
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`\nBench time: ${seconds.toFixed(1)} s\n`);
  if (options.jsonPath) {
    await writeJsonReport(options.jsonPath, meta, sections);
    process.stdout.write(`Figures written to ${options.jsonPath}\n`);
  }
  if (options.explain) {
    process.stdout.write(
      `Explained packs written to ${options.explain}; docs left as they were.\n`,
    );
  } else if (process.env.CAIRN_BENCH_NO_DOC === '1') {
    process.stdout.write('CAIRN_BENCH_NO_DOC=1: docs/BENCHMARKS.md left as it was.\n');
  } else if (!options.quick) {
    await writeBenchmarksDoc(DOC_PATH, meta, sections);
    process.stdout.write(`Rewrote ${DOC_PATH}\n`);
  } else {
    process.stdout.write('QUICK run: docs/BENCHMARKS.md left as it was.\n');
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`bench: ${error.message}\n\n${error.usage ?? USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(
    `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
