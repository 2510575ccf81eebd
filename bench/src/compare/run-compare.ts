import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import {
  collectMeta,
  describeMeta,
  renderConsoleTable,
  writeBenchmarksDoc,
  writeJsonReport,
} from '../report';
import type { CompareOptions } from './compare-args';
import { type CompareRun, compareSection, type SideOutcome } from './compare-tables';
import { pairFigures } from './pair-figures';
import { readSideReport } from './side-report';

export interface CompareContext {
  /** This checkout's root: the "after" side. */
  repoRoot: string;
  /** This checkout's docs/BENCHMARKS.md, which only the compare writes. */
  docPath: string;
}

interface Side {
  label: 'before' | 'after';
  root: string;
  /** The other checkout: nothing of it may leak into this side's process (its bins on PATH). */
  otherRoot: string;
}

const inside = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
};

/**
 * The child's environment. `CAIRN_BENCH_NO_DOC=1` keeps a bench that knows
 * it (this one) from writing its docs/BENCHMARKS.md: its figures go to the
 * JSON only, and the compare alone writes this checkout's doc. An older
 * bench ignores it and rewrites the doc of its own checkout, which is
 * where the compare reads its tables from.
 */
function childEnv(side: Side): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_BENCH_NO_DOC: '1' };
  delete env.INIT_CWD;
  if (side.otherRoot !== side.root) {
    const path = (env.PATH ?? '').split(delimiter);
    env.PATH = path.filter((entry) => !inside(entry, side.otherRoot)).join(delimiter);
  }
  return env;
}

async function runChild(side: Side, args: string[]): Promise<number> {
  const child = spawn('pnpm', args, {
    cwd: join(side.root, 'bench'),
    env: childEnv(side),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code, signal] = (await Promise.race([
    once(child, 'close'),
    once(child, 'error').then(([error]) => {
      throw new Error(`could not start pnpm in ${side.root}/bench: ${(error as Error).message}`);
    }),
  ])) as [number | null, NodeJS.Signals | null];
  return code ?? (signal ? 128 : 1);
}

async function measureSide(
  side: Side,
  section: string,
  options: CompareOptions,
  scratch: string,
): Promise<SideOutcome> {
  const jsonPath = join(scratch, `${side.label}-${section}.json`);
  const args = ['bench', section, '--json', jsonPath];
  if (section === 'locomo') args.push('--data', options.dataPath);
  if (options.quick) args.push('--quick');
  process.stdout.write(`\n=== compare: ${section}, ${side.label} (${side.root}) ===\n`);
  const started = performance.now();
  const code = await runChild(side, args);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(
    `=== compare: ${section}, ${side.label}: exit ${code} after ${seconds} s ===\n`,
  );
  if (code !== 0 || !existsSync(jsonPath)) {
    return { error: `\`pnpm bench ${section}\` exited with code ${code}` };
  }
  try {
    const docPath = join(side.root, 'docs/BENCHMARKS.md');
    const doc = await readFile(docPath, 'utf8').catch(() => undefined);
    const report = readSideReport(await readFile(jsonPath, 'utf8'), [section], doc);
    if (!report.tables[section]) {
      return {
        error: `its bench wrote no tables for ${section} (an older bench writes them only to its docs/BENCHMARKS.md, which a --quick run leaves alone)`,
      };
    }
    return { report };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * Runs each section in the before checkout, then in this one, and writes
 * the paired figures: printed, into this checkout's docs/BENCHMARKS.md
 * (not for --quick), and to --json when asked.
 */
export async function runCompare(options: CompareOptions, context: CompareContext): Promise<void> {
  const meta = collectMeta(context.repoRoot, options.quick);
  const before: Side = { label: 'before', root: options.beforeDir, otherRoot: context.repoRoot };
  const after: Side = { label: 'after', root: context.repoRoot, otherRoot: options.beforeDir };
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-bench-compare-'));
  const run: CompareRun = {
    beforeDir: options.beforeDir,
    beforeCommit: collectMeta(options.beforeDir, options.quick).commit,
    afterCommit: meta.commit,
    measured: describeMeta(meta),
    sections: [],
  };
  try {
    for (const name of options.sections) {
      const beforeSide = await measureSide(before, name, options, scratch);
      const afterSide = await measureSide(after, name, options, scratch);
      const pairs = pairFigures(
        beforeSide.report?.tables[name] ?? [],
        afterSide.report?.tables[name] ?? [],
      );
      run.sections.push({ name, before: beforeSide, after: afterSide, pairs });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const section = compareSection(run);
  process.stdout.write(`\n${section.tables.map(renderConsoleTable).join('\n\n')}\n`);
  if (options.jsonPath) {
    await writeJsonReport(options.jsonPath, meta, [section]);
    process.stdout.write(`Figures written to ${options.jsonPath}\n`);
  }
  if (options.quick) {
    process.stdout.write('QUICK run: docs/BENCHMARKS.md left as it was.\n');
    return;
  }
  await writeBenchmarksDoc(context.docPath, meta, [section]);
  process.stdout.write(`Wrote the compare section of ${context.docPath}\n`);
}
