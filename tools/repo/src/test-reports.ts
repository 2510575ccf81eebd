import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './workspace-packages';

/**
 * What a package's last `pnpm test` said about its tests: its `test`
 * script writes vitest's JSON report to `.vitest-report.json` (git-ignored;
 * a turbo cache hit restores the report of the identical run). The docs
 * site reads it to say, per fidelity cell, when its e2e test last passed.
 */

/** The parts of vitest's JSON report read here. */
export interface VitestReport {
  /** When the run started, ms since the epoch. */
  startTime: number;
  testResults: {
    /** The test file's absolute path. */
    name: string;
    startTime?: number;
    assertionResults: { title: string; status: string }[];
  }[];
}

export const REPORT_FILE = '.vitest-report.json';

/** A package's last report, or undefined when it has none (no `pnpm test` in this build). */
export function readReport(packageDir: string): VitestReport | undefined {
  try {
    const report = JSON.parse(readFileSync(join(packageDir, REPORT_FILE), 'utf8')) as VitestReport;
    return Array.isArray(report.testResults) ? report : undefined;
  } catch {
    return undefined;
  }
}

/** The build a report belongs to: the commit checked out (CI's own variable first). */
export function buildCommit(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.GITHUB_SHA ?? env.CI_COMMIT_SHA;
  if (given) return given.slice(0, 10);
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return sha || undefined;
  } catch {
    return undefined;
  }
}

export interface StampContext {
  /** `in CI` when the CI variable is set, else `locally`. */
  where: string;
  commit?: string;
}

export function stampContext(env: NodeJS.ProcessEnv = process.env): StampContext {
  const commit = buildCommit(env);
  return { where: env.CI ? 'in CI' : 'locally', ...(commit ? { commit } : {}) };
}

/**
 * What the build says of one test of a file (`file` relative to the
 * package's `src/`): `passed in CI on 2026-11-28 (abc1234567)`, `failed
 * in CI on …`, `skipped in this build` (its harness binary missing, say),
 * or `not run in this build` when no report holds it.
 */
export function testStamp(
  report: VitestReport | undefined,
  file: string,
  title: string,
  context: StampContext,
): string {
  const entry = report?.testResults.find((result) =>
    result.name.replaceAll('\\', '/').endsWith(`/src/${file}`),
  );
  const test = entry?.assertionResults.find((result) => result.title === title);
  if (!report || !entry || !test) return 'not run in this build';
  const day = new Date(entry.startTime ?? report.startTime).toISOString().slice(0, 10);
  const when = `${context.where} on ${day}${context.commit ? ` (${context.commit})` : ''}`;
  if (test.status === 'passed') return `passed ${when}`;
  if (test.status === 'failed') return `failed ${when}`;
  return 'skipped in this build';
}
