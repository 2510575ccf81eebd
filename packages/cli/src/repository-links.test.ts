import { existsSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  makeTempProject,
  REPOSITORY_LINK_CASES,
  type RepositoryLinkCase,
  snapshotTree,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './fuzz-harness';
import { type CliRun, cliRunner } from './test-cli';

/**
 * Links a repository ships under `.cairn/` are never followed: each kind
 * of link (folder, file, dangling, to a device, to /proc, to another
 * project, and a FIFO) through each surface of the CLI: the Claude Code
 * SessionStart hook and `cairn add` as real processes, then `cairn
 * search`, `pack`, `reindex` and `doctor`. One victim project serves every
 * case; nothing of it may appear in any output, and nothing under its
 * `.cairn/` may change. The MCP tools have their own matrix
 * (packages/mcp/src/repository-links.test.ts).
 */

const VICTIM_UNIT = 'VICTIM decision: the kestrel database password rotates on Sundays.';
const VICTIM_NOTES = 'VICTIM notes: the kestrel runbook lives in the private wiki.';
const EVIL_UNIT = 'Evil project note: kestrel builds run nightly.';
/** In the hook's environment: /proc/self/environ would carry it. */
const SECRET_ENV = { MY_DB_PASS: 'hunter2-from-the-environment' };

let victim: TempProject;
let victimTree: Record<string, string>;
const victimCli = cliRunner(() => victim.root, { CAIRN_TIMEZONE: 'UTC' });

const hookPayload = (root: string, event: 'SessionStart' | 'SessionEnd') =>
  JSON.stringify({
    session_id: 's-links',
    transcript_path: join(root, 'transcript.jsonl'),
    cwd: root,
    hook_event_name: event,
    ...(event === 'SessionStart' ? { source: 'startup' } : { reason: 'other' }),
  });

beforeAll(async () => {
  victim = await makeTempProject('cairn-victim-');
  expect(victimCli.run(['init']).code).toBe(0);
  expect(victimCli.run(['add', VICTIM_UNIT]).code).toBe(0);
  const head = '<!-- cairn:head:start -->\n<!-- cairn:head:end -->';
  expect(victimCli.run(['write'], `# Victim memory\n\n${head}\n\n${VICTIM_NOTES}\n`).code).toBe(0);
  await writeFile(join(victim.root, '.cairn/config.json'), '{ "timezone": "UTC" }\n');
  await writeFile(join(victim.root, 'transcript.jsonl'), '');
  // A session end gives the victim its lineage.db and heads.db.
  const end = victimCli.run(
    ['hook', 'claude-code', 'SessionEnd'],
    hookPayload(victim.root, 'SessionEnd'),
  );
  expect(end.code).toBe(0);
  victimTree = await snapshotTree(join(victim.root, '.cairn'));
  expect(Object.keys(victimTree)).toContain('state/lineage.db');
}, 60_000);

afterAll(() => victim.cleanup());

/** No output of a project with a link may hold anything of the victim or of the environment. */
function expectNothingLeaked(...outputs: string[]): void {
  for (const output of outputs) {
    expect(output).not.toContain('VICTIM');
    expect(output).not.toContain(SECRET_ENV.MY_DB_PASS);
  }
}

/** A project of its own (one unit), then the link. */
async function evilProject(linkCase: RepositoryLinkCase): Promise<TempProject> {
  const evil = await makeTempProject('cairn-evil-');
  expect((await runInProcess(evil.root, ['init'])).code).toBe(0);
  expect((await runInProcess(evil.root, ['add', EVIL_UNIT])).code).toBe(0);
  await writeFile(join(evil.root, 'transcript.jsonl'), '');
  await linkCase.place(evil.root, victim.root);
  return evil;
}

/** The hook server's sockets under a cache folder. */
const socketsIn = (cache: string) => {
  const dir = join(cache, 'cairn', 'hooks');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.sock')) : [];
};

/** Polls a condition the hook server makes true from its own process (its socket appearing). */
async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the hook server socket');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function expectRefused(run: CliRun | { code: number; stdout: string; stderr: string }): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toMatch(/INVALID_PATH: Refusing to use .*(symbolic link|not a regular file)/);
  expect(run.stderr).toMatch(
    /Cairn never follows links under \.cairn\/|only regular files under \.cairn\//,
  );
}

describe('links a repository ships under .cairn/ are never followed (CLI and hooks)', () => {
  it.each(REPOSITORY_LINK_CASES.map((c) => [c.name, c] as const))(
    '%s: the hook injects nothing, commands refuse with INVALID_PATH, doctor names it',
    async (_name, linkCase) => {
      const evil = await evilProject(linkCase);
      try {
        const cli = cliRunner(() => evil.root, { CAIRN_TIMEZONE: 'UTC', ...SECRET_ENV });
        const hook = cli.run(
          ['hook', 'claude-code', 'SessionStart'],
          hookPayload(evil.root, 'SessionStart'),
        );
        expect(hook.code).toBe(0);
        expect(hook.stdout).toBe('');
        const add = cli.run(['add', 'A second evil note about kestrel.']);
        expectRefused(add);
        const search = await runInProcess(evil.root, ['search', 'kestrel']);
        const pack = await runInProcess(evil.root, ['pack', 'kestrel']);
        const reindex = await runInProcess(evil.root, ['reindex']);
        for (const run of [search, pack, reindex]) expectRefused(run);
        const doctor = await runInProcess(evil.root, ['doctor', '--json']);
        expect(doctor.code).toBe(1);
        const report = JSON.parse(doctor.stdout) as {
          ok: boolean;
          findings: { path?: string; fix: string }[];
        };
        expect(report.ok).toBe(false);
        expect(report.findings).toContainEqual(
          expect.objectContaining({ path: linkCase.path, fix: expect.stringMatching(/remove/) }),
        );
        expectNothingLeaked(
          ...[hook, add, search, pack, reindex, doctor].flatMap((r) => [r.stdout, r.stderr]),
        );
        expect(await snapshotTree(join(victim.root, '.cairn'))).toEqual(victimTree);
      } finally {
        await evil.cleanup();
      }
    },
    60_000,
  );

  it('Repro A through the hook server (the default): a linked memory folder injects nothing', async () => {
    const evil = await evilProject(REPOSITORY_LINK_CASES[0]!);
    // Short: a Unix socket path must fit in about 100 bytes.
    const cache = join(tmpdir(), `chl-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
    const cli = cliRunner(() => evil.root, {
      CAIRN_HOOK_SERVER: undefined,
      XDG_CACHE_HOME: cache,
      CAIRN_TEST_HOOK_SERVER_TRACE: '1',
    });
    const hook = () =>
      cli.run(['hook', 'claude-code', 'SessionStart'], hookPayload(evil.root, 'SessionStart'));
    const servers = new Set<number>();
    try {
      // The first event starts the server and answers itself; the next ones go to the server.
      const first = hook();
      await until(() => socketsIn(cache).length === 1);
      const served = [hook(), hook()];
      for (const run of [first, ...served]) {
        expect(run.code).toBe(0);
        expect(run.stdout).toBe('');
      }
      for (const run of served) {
        const pid = /answered by hook server (\d+)/.exec(run.stderr)?.[1];
        expect(pid, run.stderr).toBeDefined();
        servers.add(Number(pid));
      }
      expectNothingLeaked(...[first, ...served].flatMap((r) => [r.stdout, r.stderr]));
      expect(await snapshotTree(join(victim.root, '.cairn'))).toEqual(victimTree);
    } finally {
      for (const pid of servers) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // Gone already.
        }
      }
      rmSync(cache, { recursive: true, force: true });
      await evil.cleanup();
    }
  }, 60_000);
});
