// Shared by the fuzz tests only: runs `cairn` in process and checks what it printed.
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CAIRN_ERROR_CODES, MEMORY_WORKSPACE_PATH } from '@cairn/core';
import { openCairn, UNIT_ERROR_CODES } from '@cairn/engine';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { expect } from 'vitest';
import { runCli } from './cli';
import type { CliIO } from './io';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The codes a user may see on an error line: CairnError codes and upper-cased unit codes. */
export const KNOWN_CODES = new Set<string>([
  ...CAIRN_ERROR_CODES,
  ...UNIT_ERROR_CODES.map((code) => code.toUpperCase()),
]);

/** `cairn <argv>` in this process, in `root`, with `stdin` piped (undefined: a terminal). */
export async function runInProcess(
  root: string,
  argv: string[],
  stdin?: string,
): Promise<InProcessRun> {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    readStdin: async () => stdin,
    cwd: root,
    env: { HOME: join(root, 'home'), CAIRN_TIMEZONE: 'UTC', PATH: process.env.PATH ?? '' },
  };
  const code = await runCli(argv, io);
  return { code, ...out };
}

/** One error line in the documented format, with a known code that is not INTERNAL. */
export function expectErrorLine(stderr: string, prefix = 'cairn: '): string {
  const lines = stderr.split('\n').filter((line) => line && !line.startsWith('cairn: warning: '));
  expect(lines, stderr).toHaveLength(1);
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^${escaped}([A-Z_]+): .+ — .+$`).exec(lines[0]!);
  expect(match, lines[0]).not.toBeNull();
  const code = match![1]!;
  expect(KNOWN_CODES, code).toContain(code);
  expect(code).not.toBe('INTERNAL');
  return code;
}

export const memorySnapshot = (root: string) => snapshotTree(join(root, MEMORY_WORKSPACE_PATH));

/** No input may leave a damaged marker, a binary or non-UTF-8 file, or a broken head behind. */
export async function expectHealthyWorkspace(root: string): Promise<void> {
  const report = await (await openCairn(root, { env: {}, homeDir: join(root, 'home') })).doctor();
  expect(report.issues).toEqual([]);
  const damaged = report.findings.filter((f) => f.area === 'workspace');
  expect(damaged, JSON.stringify(damaged)).toEqual([]);
}

/**
 * fast-check settings every fuzz property shares: seeded, so a failure
 * replays. CAIRN_FUZZ_SEED and CAIRN_FUZZ_RUNS explore further by hand; CI
 * keeps the fixed seed.
 */
export const FUZZ_RUNS = {
  numRuns: Number(process.env.CAIRN_FUZZ_RUNS ?? 120),
  seed: Number(process.env.CAIRN_FUZZ_SEED ?? 20261125),
  endOnFailure: true,
} as const;

/** In every file of the link targets: no output may ever carry it. */
export const OUTSIDE_MARKER = 'OUTSIDE-SECRET-7c1f kestrel';

/**
 * Another project's files, where generated links point: a folder shaped
 * like `.cairn/memory` and `.cairn/state`, each file holding OUTSIDE_MARKER.
 */
export async function makeLinkTargets(): Promise<TempProject> {
  const outside = await makeTempProject('cairn-link-target-');
  const dir = join(outside.root, 'dir');
  await mkdir(join(dir, 'threads'), { recursive: true });
  for (const name of ['MEMORY.md', 'DREAMS.md', '2026-01-01.md', 'threads/main.md', 'heads.db']) {
    await writeFile(join(dir, name), `${OUTSIDE_MARKER}\n`);
  }
  await writeFile(join(dir, 'config.json'), `{ "timezone": "UTC", "note": "${OUTSIDE_MARKER}" }\n`);
  return outside;
}

const linkPointer = (target: string, outside: string, spot: string) =>
  target === 'folder'
    ? join(outside, 'dir')
    : target === 'file'
      ? join(outside, 'dir', 'MEMORY.md')
      : target === 'dangling'
        ? join(outside, 'dir', `missing-${spot.replace(/\W/g, '-')}`)
        : target;

/**
 * Runs `fn` with a link at `spot` (project-relative) to `target` (see
 * `linkTarget`), whatever was there moved aside, then puts it back.
 */
export async function withLink<T>(
  root: string,
  spot: string,
  target: string,
  outside: string,
  fn: () => Promise<T>,
): Promise<T> {
  const at = join(root, spot);
  const aside = `${at}.aside`;
  const existed = lstatSync(at, { throwIfNoEntry: false }) !== undefined;
  if (existed) await rename(at, aside);
  else await mkdir(dirname(at), { recursive: true });
  await symlink(linkPointer(target, outside, spot), at);
  try {
    return await fn();
  } finally {
    await rm(at, { recursive: true, force: true });
    if (existed && existsSync(aside)) await rename(aside, at);
  }
}
