import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openCairn } from '@cairn/engine';
import {
  type ModelServer,
  makeTempProject,
  snapshotTree,
  startModelServer,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The workspace's Node 24 from the npm registry (tools/node24), by path: no dependency just for a test.
import { node24Path } from '../../../tools/node24/index.js';
import { CODEX_BIN, codexAvailable } from './testing/app-server-client';
import { makeCodexHome } from './testing/codex-home';
import { describeRun, runCodex } from './testing/run-codex';

/**
 * The committed .codex/ files name `cairn` and no path: a project copied
 * with `cp -a` works after `cairn install codex` there (Codex keys its hook
 * trust by the hooks file's path, in the user's config), and its hooks and
 * memory_add write to the copy, not the original. A clone on another HOME
 * works after `cairn install codex` there. After a Node upgrade (a newer
 * `node` first on PATH) the same files keep working, with no reinstall.
 */
const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const ADDED = 'Codex portable e2e: the copy keeps its own memory.';
const UPGRADED = 'Codex portable e2e: the team upgraded Node to 24 last week.';
/** Added to the clone only: its injection shows the hooks read the clone's memory. */
const CLONE_ONLY = 'Codex portable e2e: only the clone knows the release train is heron.';
const COMMITTED = ['hooks.json', 'config.toml'];

const skipReason = codexAvailable() ? undefined : `the pinned Codex CLI is missing (${CODEX_BIN})`;
if (skipReason) console.warn(`codex portable e2e skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('codex e2e: a moved, cloned and upgraded project', () => {
  let temp: TempProject;
  let server: ModelServer;
  let env: Record<string, string>;
  let home: string;
  let original: string;
  let moved: string;

  const cairnIn = (runEnv: Record<string, string>, cwd: string, ...args: string[]) =>
    run('cairn', args, { cwd, env: { ...process.env, ...runEnv } });
  const cairn = (cwd: string, ...args: string[]) => cairnIn(env, cwd, ...args);
  const git = (cwd: string, ...args: string[]) =>
    run('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd });
  /** One `codex exec` session in `cwd`; Cairn's MCP server required so the tool is there on the only turn. */
  /** One `codex exec` whose prompt asks `question`: its pack brings what is relevant to it. */
  const session = async (cwd: string, runEnv = env, question = '') => {
    const args = ['exec', '-c', 'mcp_servers.cairn.required=true', '--skip-git-repo-check'];
    const prompt = `Remember this. ${question}`.trim();
    const result = await runCodex([...args, '--json', '-C', cwd, prompt], {
      cwd,
      env: runEnv,
      timeoutMs: 150_000,
    });
    expect(result.code, describeRun(args, result)).toBe(0);
  };
  const codexLineage = async (root: string) => {
    const memory = await openCairn(root, { env: {} });
    try {
      return memory.threads('codex').flatMap((thread) => thread.lineage);
    } finally {
      memory.closeWorking();
    }
  };
  const units = async (root: string) => {
    const memory = await openCairn(root, { env: {} });
    try {
      return (await memory.list()).map((unit) => unit.text);
    } finally {
      memory.closeWorking();
    }
  };

  beforeAll(async () => {
    temp = await makeTempProject('cairn-codex-portable-');
    original = join(temp.root, 'project');
    moved = join(temp.root, 'project-moved');
    home = join(temp.root, 'home');
    await mkdir(original, { recursive: true });
    await mkdir(join(temp.root, 'bin'));
    await symlink(CLI, join(temp.root, 'bin', 'cairn'));
    server = await startModelServer({
      text: 'Done.',
      toolCalls: [{ tool: /memory_add/, input: { text: ADDED } }],
    });
    // The user's answers to Codex's trust prompt for both folders.
    env = await makeCodexHome({
      home,
      modelUrl: server.url,
      trusted: [original, moved],
      pathDirs: [join(temp.root, 'bin')],
    });
    await cairn(original, 'install', 'codex');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await temp?.cleanup();
  });

  it('after cp -a and `cairn install codex` there, hooks and memory_add write to the copy', async () => {
    await run('cp', ['-a', original, moved]);
    await cairn(moved, 'install', 'codex');
    // The install in the copy changed only the user's config (hook trust), no committed file.
    for (const name of COMMITTED) {
      const text = await readFile(join(moved, '.codex', name), 'utf8');
      expect(text).toBe(await readFile(join(original, '.codex', name), 'utf8'));
      expect(text).not.toContain(temp.root);
    }
    await session(moved);
    expect(await units(moved)).toContain(ADDED);
    expect((await codexLineage(moved)).length).toBeGreaterThan(0);
    expect(await units(original)).not.toContain(ADDED);
    expect(await codexLineage(original)).toEqual([]);
  }, 180_000);

  // Runs after the move test and before the upgrade: the original (cloned here) has no ADDED yet.
  it('a clone on another HOME works after `cairn install codex` there', async () => {
    await git(original, 'init', '-q');
    await git(original, 'add', '-A');
    await git(original, 'commit', '-qm', 'cairn installed');
    const checkout = join(temp.root, 'checkout');
    await git(temp.root, 'clone', '-q', original, checkout);
    const otherEnv = await makeCodexHome({
      home: join(temp.root, 'other-home'),
      modelUrl: server.url,
      trusted: [checkout],
      pathDirs: [join(temp.root, 'bin')],
    });
    const firstHome = await snapshotTree(home);
    const originalTree = await snapshotTree(original);
    await cairnIn(otherEnv, checkout, 'install', 'codex');
    // The install there trusted the hooks in that HOME's config only: no committed file changed.
    expect((await git(checkout, 'status', '--porcelain')).stdout).toBe('');
    expect(await readFile(join(otherEnv.CODEX_HOME!, 'config.toml'), 'utf8')).toContain(
      join(checkout, '.codex', 'hooks.json'),
    );
    await cairnIn(otherEnv, checkout, 'add', CLONE_ONLY);
    const before = server.requests.length;
    await session(checkout, otherEnv, 'What is the release train of the clone called?');
    // The prompt's pack (the unit it asks about) reached the model: the hooks ran there.
    const requests = server.requests.slice(before);
    expect(requests.some((request) => request.text.includes(CLONE_ONLY))).toBe(true);
    expect(await units(checkout)).toContain(ADDED);
    expect((await codexLineage(checkout)).length).toBeGreaterThan(0);
    // The first HOME and the original checkout were not touched.
    expect(await snapshotTree(home)).toEqual(firstHome);
    expect(await snapshotTree(original)).toEqual(originalTree);
  }, 180_000);

  // Runs after the move test, whose assertions need the original without ADDED.
  it.skipIf(!node24Path())(
    'after a Node upgrade, hooks inject and memory_add lands with no reinstall',
    async () => {
      // The install ran on this Node (20); `node` on PATH is now another binary, as after
      // `nvm install 24` or `brew upgrade node`. `cairn` (#!/usr/bin/env node) runs on it.
      const upgrade = join(temp.root, 'node-upgrade');
      await mkdir(upgrade);
      await symlink(node24Path()!, join(upgrade, 'node'));
      env = { ...env, PATH: `${upgrade}${delimiter}${env.PATH}` };
      expect((await run('node', ['--version'], { env })).stdout.trim()).toMatch(/^v24\./);
      await cairn(original, 'add', UPGRADED);
      const configBefore = await readFile(join(home, '.codex', 'config.toml'), 'utf8');
      const before = server.requests.length;
      await session(original, env, 'Did the team upgrade Node last week?');
      // The prompt's pack (the unit it asks about) reached the model: the hook ran.
      const requests = server.requests.slice(before);
      expect(requests.some((request) => request.text.includes(UPGRADED))).toBe(true);
      expect(await units(original)).toContain(ADDED);
      expect((await codexLineage(original)).length).toBeGreaterThan(0);
      // Nothing was re-trusted or rewritten for the new Node.
      expect(await readFile(join(home, '.codex', 'config.toml'), 'utf8')).toBe(configBefore);
    },
    180_000,
  );
});
