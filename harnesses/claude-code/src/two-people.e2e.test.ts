import { execFile, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ModelServer, type RecordedModelRequest, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './claude-env.fixture';

/*
 * Two people, two clones of one repository, each with their own HOME and
 * harness, driven for real against the scripted model server
 * (docs/TEAMS.md): Alice works in Claude Code, Bob in Codex.
 * - Alice's clone learns a fix, she approves it, commits `.cairn/`; Bob
 *   clones, and his first failure of the same kind gets her fix, with none
 *   of her lineage ids in what his session was given.
 * - Both work on (Bob fixes and approves another error in Codex) and merge
 *   each other's commits: git merges cleanly, the team head is one valid
 *   region, each clone's own head is intact, doctor ok; then Alice's failure
 *   of Bob's kind, in Claude Code, gets Bob's fix.
 * - Bob's `cairn export`, imported into a third clone, answers `cairn
 *   history`, `cairn search`, `cairn threads` and `cairn head` as Bob's does.
 */

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
// The Codex CLI pinned by @cairn/harness-codex, run by path (no import of another harness).
const CODEX = fileURLToPath(new URL('../../codex/node_modules/.bin/codex', import.meta.url));
const TIMEOUT = 300_000;

const skip = !existsSync(CLAUDE)
  ? `the pinned Claude Code CLI is missing (${CLAUDE}); run pnpm install`
  : !existsSync(CODEX)
    ? `the pinned Codex CLI is missing (${CODEX}); run pnpm install`
    : !existsSync(CLI)
      ? `the cairn CLI is not built (${CLI}); build packages/cli`
      : undefined;

let base: string;
let alice: string;
let bob: string;
let carol: string;
const servers: ModelServer[] = [];

const gitEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: join(base, 'git-home'),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Someone',
  GIT_AUTHOR_EMAIL: 'someone@example.com',
  GIT_COMMITTER_NAME: 'Someone',
  GIT_COMMITTER_EMAIL: 'someone@example.com',
});
const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, env: gitEnv() });

const aliceEnv = (modelUrl = 'http://127.0.0.1:9') =>
  claudeEnv({ home: join(base, 'alice-home'), modelUrl, pathDirs: [join(base, 'bin')] });

function bobEnv(): NodeJS.ProcessEnv {
  const home = join(base, 'bob-home');
  return {
    PATH: [join(base, 'bin'), process.env.PATH].join(delimiter),
    HOME: home,
    CODEX_HOME: join(home, '.codex'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CODEX_E2E_KEY: 'dummy',
  };
}

const carolEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: join(base, 'carol-home'),
  XDG_CACHE_HOME: join(base, 'carol-home', '.cache'),
});

function cairnIn(root: string, env: NodeJS.ProcessEnv) {
  return async (...args: string[]) =>
    (await run(process.execPath, [CLI, ...args, '--root', root], { env, maxBuffer: 16 << 20 }))
      .stdout;
}

/** Waits for what a session end writes (it may finish after the harness exits: HOOKS.md). */
async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(250);
  }
}

async function sessions(root: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { threads } = JSON.parse(await cairnIn(root, env)('threads', '--json')) as {
    threads: { sessions: number }[];
  };
  return threads.reduce((sum, thread) => sum + thread.sessions, 0);
}

async function claude(server: ModelServer, prompt: string) {
  const { stdout } = await run(
    CLAUDE,
    ['-p', prompt, '--output-format', 'json', '--allowedTools', 'Bash', 'Write'],
    { cwd: alice, env: aliceEnv(server.url), timeout: TIMEOUT, maxBuffer: 16 << 20 },
  );
  expect((JSON.parse(stdout) as { is_error: boolean }).is_error).toBe(false);
}

/** `codex exec` with stdin closed (it would wait on an open pipe), pointed at `server`. */
function codex(server: ModelServer, prompt: string): Promise<number | null> {
  const args = ['exec', '-c', `model_providers.e2e.base_url="${server.url}/v1"`];
  args.push('-c', 'sandbox_mode="workspace-write"', '--skip-git-repo-check', '--json', prompt);
  return new Promise((resolve, reject) => {
    const child = spawn(CODEX, args, { cwd: bob, env: bobEnv(), stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', resolve);
  });
}

async function codexHome(): Promise<void> {
  const dir = join(base, 'bob-home', '.codex');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'config.toml'),
    [
      'model = "e2e-model"',
      'model_provider = "e2e"',
      'approval_policy = "never"',
      '',
      '[model_providers.e2e]',
      'name = "e2e"',
      'base_url = "http://127.0.0.1:9/v1"',
      'env_key = "CODEX_E2E_KEY"',
      'wire_api = "responses"',
      '',
      `[projects.${JSON.stringify(bob)}]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
}

const lineageIds = (text: string) => [...text.matchAll(/node:[0-9a-f-]{36}/g)].map((m) => m[0]);
const requestText = (requests: RecordedModelRequest[]) => requests.map((r) => r.text).join('\n');

describe.skipIf(skip !== undefined)(
  `two people, two clones${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let aliceAuthor: string;
    let bobAuthor: string;
    let aliceNodes: string[];

    beforeAll(async () => {
      base = realpathSync(await mkdtemp(join(tmpdir(), 'cairn-team-e2e-')));
      alice = join(base, 'alice', 'proj');
      bob = join(base, 'bob', 'proj');
      carol = join(base, 'carol', 'proj');
      await mkdir(alice, { recursive: true });
      await mkdir(join(base, 'bin'));
      await symlink(CLI, join(base, 'bin', 'cairn'));
      await writeFile(
        join(alice, 'main.js'),
        "const { greet } = require('./lib/greet');\nconsole.log(greet('cairn'));\n",
      );
      await writeFile(
        join(alice, 'farewell.js'),
        "const { bye } = require('./lib/farewell');\nconsole.log(bye('cairn'));\n",
      );
      await git(alice, 'init', '-q', '-b', 'main');
      await git(alice, 'add', 'main.js', 'farewell.js');
      await git(alice, 'commit', '-q', '-m', 'the app');
      await cairnIn(alice, aliceEnv())('install', 'claude-code', '--scope', 'project');
      await writeFile(
        join(base, 'alice-home', '.claude.json'),
        JSON.stringify({ projects: { [alice]: { hasTrustDialogAccepted: true } } }),
      );
    }, TIMEOUT);

    afterAll(async () => {
      for (const server of servers) await server.close();
      if (base && !process.env.CAIRN_E2E_KEEP) await rm(base, { recursive: true, force: true });
    });

    it("Alice's fix, learned in Claude Code and approved, answers Bob's first failure in Codex", {
      timeout: TIMEOUT,
    }, async () => {
      const aliceCairn = cairnIn(alice, aliceEnv());
      const first = await startModelServer({
        text: 'Fixed: lib/greet.js was missing.',
        toolCalls: [
          { tool: /^Bash$/, input: { command: 'node main.js' }, afterResults: 0 },
          {
            tool: /^Write$/,
            input: {
              file_path: join(alice, 'lib/greet.js'),
              content: "exports.greet = (n) => 'hello ' + n;\n",
            },
            afterResults: 1,
          },
          { tool: /^Bash$/, input: { command: 'node main.js' }, afterResults: 2 },
        ],
      });
      servers.push(first);
      await claude(first, 'Run the app and fix it if it fails.');
      expect(requestText(first.requests)).toContain('hello cairn');
      await until('Alice’s session end', async () =>
        (await sessions(alice, aliceEnv())) >= 1 ? true : undefined,
      );
      const [pattern] = JSON.parse(await aliceCairn('history', 'patterns', '--json')).patterns;
      expect(pattern).toMatchObject({ state: 'candidate', stepsKey: 'edit' });
      // A person checks the fix and approves it: verified, and shared in her clone's file.
      const approved = await aliceCairn('history', 'approve', pattern.id);
      aliceAuthor = /\.cairn\/memory\/fixes\/([0-9a-f]{12})\.md/.exec(approved)![1]!;
      const shared = await readFile(join(alice, `.cairn/memory/fixes/${aliceAuthor}.md`), 'utf8');
      expect(shared).toContain('edited `lib/greet.js`');
      expect(shared).not.toContain(alice);
      aliceNodes = lineageIds(await aliceCairn('head'));
      expect(aliceNodes.length).toBeGreaterThan(0);
      // She commits Cairn's markdown (not her fix: Bob's clone must meet the error).
      await git(alice, 'add', '.cairn');
      await git(alice, 'commit', '-q', '-m', 'alice: memory');
      const tracked = (await git(alice, 'ls-files', '.cairn')).stdout;
      expect(tracked).toContain(`fixes/${aliceAuthor}.md`);
      expect(tracked).not.toMatch(/threads\/|state\//);

      await mkdir(join(base, 'bob'), { recursive: true });
      await git(join(base, 'bob'), 'clone', '-q', alice, 'proj');
      await codexHome();
      await cairnIn(bob, bobEnv())('install', 'codex');
      const second = await startModelServer({
        text: 'Noted the known fix.',
        toolCalls: [{ tool: /^exec_command$/, input: { cmd: 'node main.js' }, afterResults: 0 }],
      });
      servers.push(second);
      expect(await codex(second, 'Run the app.')).toBe(0);
      const seen = requestText(second.requests);
      expect(seen).toContain("Cannot find module './lib/greet'");
      expect(seen).toContain('Known fix for this error');
      expect(seen).toContain(
        `Shared by another clone of this repository in \`.cairn/memory/fixes/${aliceAuthor}.md\``,
      );
      expect(seen).toContain('edited `lib/greet.js`');
      // Nothing Bob's session was given names a node of Alice's lineage.
      for (const id of aliceNodes) expect(seen).not.toContain(id);
      await until('Bob’s session end', async () =>
        (await sessions(bob, bobEnv())) >= 1 ? true : undefined,
      );
    });

    it('both go on and merge: one valid team head, each clone its own, doctor ok', {
      timeout: TIMEOUT,
    }, async () => {
      // Bob meets another missing module in Codex, fixes it, and approves his fix.
      const write =
        'mkdir -p lib && printf \'exports.bye = (n) => "bye " + n\\n\' > lib/farewell.js';
      const fixing = await startModelServer({
        text: 'Fixed.',
        toolCalls: [
          { tool: /^exec_command$/, input: { cmd: 'node farewell.js' }, afterResults: 0 },
          { tool: /^exec_command$/, input: { cmd: write }, afterResults: 1 },
          { tool: /^exec_command$/, input: { cmd: 'node farewell.js' }, afterResults: 2 },
        ],
      });
      servers.push(fixing);
      expect(await codex(fixing, 'Run farewell.js and fix it if it fails.')).toBe(0);
      expect(requestText(fixing.requests)).toContain('bye cairn');
      await until('Bob’s second session end', async () =>
        (await sessions(bob, bobEnv())) >= 2 ? true : undefined,
      );
      const bobCairn = cairnIn(bob, bobEnv());
      const { patterns } = JSON.parse(await bobCairn('history', 'patterns', '--json')) as {
        patterns: { id: string; normalized: string }[];
      };
      const farewell = patterns.find((p) => p.normalized.includes('farewell'))!;
      const approved = await bobCairn('history', 'approve', farewell.id);
      bobAuthor = /\.cairn\/memory\/fixes\/([0-9a-f]{12})\.md/.exec(approved)![1]!;
      expect(bobAuthor).not.toBe(aliceAuthor);

      const third = await startModelServer({ text: 'Noted.' });
      servers.push(third);
      await claude(third, 'We decided to ship the greeting module. Next step: write its tests.');
      await until('Alice’s second session end', async () =>
        (await sessions(alice, aliceEnv())) >= 2 ? true : undefined,
      );
      await git(alice, 'add', '.cairn');
      await git(alice, 'commit', '-q', '--allow-empty', '-m', 'alice: more memory');
      await git(bob, 'add', '.cairn');
      await git(bob, 'commit', '-q', '--allow-empty', '-m', 'bob: memory');
      await git(bob, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
      await git(alice, 'pull', '-q', '--no-rebase', '--no-edit', bob, 'main');

      const memory = await readFile(join(alice, '.cairn/memory/MEMORY.md'), 'utf8');
      expect(await readFile(join(bob, '.cairn/memory/MEMORY.md'), 'utf8')).toBe(memory);
      expect(memory.match(/<!-- cairn:head:start -->/g)).toHaveLength(1);
      expect(memory).not.toMatch(/^(<{7}|>{7}|={7})/m);
      expect(lineageIds(memory)).toEqual([]);
      const aliceHead = await cairnIn(alice, aliceEnv())('head');
      const bobHead = await cairnIn(bob, bobEnv())('head');
      expect(aliceHead).toContain('proj.main');
      expect(bobHead).toContain('proj.main');
      for (const id of lineageIds(bobHead)) expect(aliceHead).not.toContain(id);
      for (const id of lineageIds(aliceHead)) expect(bobHead).not.toContain(id);
      for (const [root, env] of [
        [alice, aliceEnv()],
        [bob, bobEnv()],
      ] as const) {
        const report = JSON.parse(
          await cairnIn(root, env)('doctor', '--json').catch((e: { stdout: string }) => e.stdout),
        ) as { ok: boolean; findings: unknown[] };
        expect(report, root).toMatchObject({ ok: true });
      }
    });

    it("Bob's fix, learned in Codex, answers Alice's failure in Claude Code after the merge", {
      timeout: TIMEOUT,
    }, async () => {
      const meeting = await startModelServer({
        text: 'Noted the known fix.',
        toolCalls: [{ tool: /^Bash$/, input: { command: 'node farewell.js' }, afterResults: 0 }],
      });
      servers.push(meeting);
      await claude(meeting, 'Run farewell.js.');
      const seen = requestText(meeting.requests);
      expect(seen).toContain("Cannot find module './lib/farewell'");
      expect(seen).toContain('Known fix for this error');
      expect(seen).toContain(
        `Shared by another clone of this repository in \`.cairn/memory/fixes/${bobAuthor}.md\``,
      );
      expect(seen).toContain('lib/farewell.js');
      expect(seen).not.toContain(bob);
    });

    it("Bob's export, imported into a third clone, answers history and search as his clone does", {
      timeout: TIMEOUT,
    }, async () => {
      const archive = join(base, 'bob.jsonl.gz');
      const bobCairn = cairnIn(bob, bobEnv());
      await bobCairn('export', '--out', archive);
      await mkdir(join(base, 'carol'), { recursive: true });
      await git(join(base, 'carol'), 'clone', '-q', bob, 'proj');
      const carolCairn = cairnIn(carol, carolEnv());
      expect(await carolCairn('import', archive)).toMatch(/rows added, 0 already here/);
      for (const args of [
        ['history', 'runs', '--json'],
        ['history', 'patterns', '--json'],
        ['search', 'greet', '--json'],
        ['threads', '--json'],
        ['head'],
      ]) {
        expect(await carolCairn(...args), args.join(' ')).toBe(await bobCairn(...args));
      }
    });
  },
);
