import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { openCairn } from '@cairn/engine';
import { type ModelServer, snapshotTree, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
// The workspace's Node 24 from the npm registry (tools/node24), by path: no dependency just for a test.
import { node24Path } from '../../../tools/node24/index.js';
import { processesIn } from './processes.fixture';
import {
  createHome,
  createSandbox,
  installInProject,
  type OpencodeServer,
  opencodeBinary,
  runPrompt,
  type Sandbox,
  startServer,
} from './testing/opencode-sandbox';

/**
 * The committed files (opencode.json and the `.opencode/plugin/cairn.js`
 * loader) name `cairn` and no path: a project installed here and copied
 * with `cp -a` works in the copy as it is, and the plugin's and MCP
 * server's writes land in the copy, not the original. A clone on another
 * HOME works after `cairn install opencode` there, and after a Node upgrade
 * (another `node` first on PATH) the same files keep working.
 */
const run = promisify(execFile);
const binary = opencodeBinary();
if (!binary)
  console.warn(
    'skipping the OpenCode portable e2e: the pinned opencode-ai binary is not installed',
  );

const SEED = 'The OpenCode project names its staging cluster kestrel-stage.';
const FACT = 'OpenCode portable e2e: the copy keeps its own memory.';
/** Added to the copy only: its injection shows the plugin read the copy's memory. */
const COPY_ONLY = 'Only the moved copy knows its release train is called heron.';
const CLONE_ONLY = 'Only the clone on the other HOME knows its pager alias is osprey.';
const UPGRADED = 'The team upgraded Node to 24 last week; nothing was reinstalled.';
const COMMITTED = ['opencode.json', '.opencode/plugin/cairn.js'];
const TIMEOUT = 180_000;
const AGENT = 'opencode';

describe.skipIf(!binary)('OpenCode e2e: a moved, cloned and upgraded project', () => {
  let sandbox: Sandbox;
  let model: ModelServer;
  let server: OpencodeServer | undefined;

  const memoryOf = async (root: string) => {
    const memory = await openCairn(root, { env: {} });
    try {
      const units = (await memory.list()).map((unit) => unit.text);
      const lineage = memory.threads(AGENT).flatMap((thread) => thread.lineage);
      const kinds = lineage.map((id) => memory.expand(id, AGENT).node.kind);
      return { units, kinds };
    } finally {
      memory.closeWorking();
    }
  };
  const cairn = (where: Sandbox, ...args: string[]) =>
    run('cairn', args, { cwd: where.project, env: { ...process.env, ...where.env } });
  const git = (cwd: string, ...args: string[]) =>
    run('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd });

  /**
   * One prompt (asking `question`) through `opencode serve` in `where`; resolves once memory_add
   * (MCP) and the idle session end (plugin) have written to its project.
   * `whileRunning` runs before the server stops.
   */
  const session = async (
    where: Sandbox,
    question: string,
    whileRunning?: () => Promise<void> | void,
  ) => {
    server = await startServer(where);
    // The prompt asks about the fact the test added: the pack brings what is relevant to it.
    await runPrompt(where, server, `Please remember this about the project. ${question}`);
    await vi.waitFor(
      async () => {
        const { units, kinds } = await memoryOf(where.project);
        expect(units).toContain(FACT);
        expect(kinds).toContain('session_summary');
      },
      { timeout: 60_000, interval: 200 },
    );
    await whileRunning?.();
    await server.stop();
    server = undefined;
  };

  beforeAll(async () => {
    sandbox = await createSandbox();
    model = await startModelServer({
      text: 'Noted.',
      toolCalls: [{ tool: /memory_add/, input: { text: FACT, category: 'decision' } }],
    });
    await installInProject(sandbox, model.url, [SEED]);
  }, TIMEOUT);

  afterAll(async () => {
    await server?.stop();
    await model?.close();
    await sandbox?.cleanup();
  });

  it('after cp -a, injection and writes go to the copy, not the original', {
    timeout: TIMEOUT,
  }, async () => {
    const original = sandbox.project;
    for (const name of COMMITTED) {
      const text = await readFile(join(original, name), 'utf8');
      expect(text).toContain('cairn');
      expect(text).not.toContain(dirname(sandbox.home));
    }
    const moved = join(dirname(original), 'project-moved');
    await run('cp', ['-a', original, moved]);
    const copy: Sandbox = { ...sandbox, project: moved };
    await cairn(copy, 'add', COPY_ONLY);
    const before = await snapshotTree(join(original, '.cairn'));
    await session(copy, 'What is the release train of the moved copy called?');
    // The copy's memory reached the model's request.
    expect(model.requestsContaining(COPY_ONLY).length).toBeGreaterThan(0);
    expect(await snapshotTree(join(original, '.cairn'))).toEqual(before);
    const { units, kinds } = await memoryOf(original);
    expect(units).not.toContain(FACT);
    expect(kinds).toEqual([]);
  });

  // After the move test, before the upgrade: the original (cloned here) holds no FACT yet.
  it('a clone on another HOME works after `cairn install opencode` there', {
    timeout: TIMEOUT,
  }, async () => {
    const original = sandbox.project;
    await git(original, 'init', '-q');
    await git(original, 'add', '-A');
    await git(original, 'commit', '-qm', 'cairn installed');
    const base = dirname(original);
    const home = join(base, 'other-home');
    const clone: Sandbox = {
      ...sandbox,
      home,
      project: join(base, 'checkout'),
      env: await createHome(home, [sandbox.bin]),
    };
    await git(base, 'clone', '-q', original, clone.project);
    const firstHome = await snapshotTree(sandbox.home);
    const originalTree = await snapshotTree(original);
    const { stdout } = await cairn(clone, 'install', 'opencode');
    expect(stdout).toContain('nothing to change');
    // Everything OpenCode needs was committed: the install there changed no file.
    expect((await git(clone.project, 'status', '--porcelain')).stdout).toBe('');
    await cairn(clone, 'add', CLONE_ONLY);
    await session(clone, 'What is the pager alias of the clone on the other HOME?');
    // The loader found `cairn` on the new HOME's PATH: the clone's memory reached the model.
    expect(model.requestsContaining(CLONE_ONLY).length).toBeGreaterThan(0);
    // The first HOME and the original checkout were not touched.
    expect(await snapshotTree(sandbox.home)).toEqual(firstHome);
    expect(await snapshotTree(original)).toEqual(originalTree);
  });

  it.skipIf(!node24Path())(
    'after a Node upgrade the committed loader and `cairn mcp` keep working, no reinstall',
    { timeout: TIMEOUT },
    async () => {
      const original = sandbox.project;
      // The install ran on this Node (20); `node` on PATH is now another binary, as after
      // `nvm install 24` or `brew upgrade node`. `cairn` (#!/usr/bin/env node) runs on it.
      const upgrade = join(dirname(original), 'node-upgrade');
      await mkdir(upgrade);
      await symlink(node24Path()!, join(upgrade, 'node'));
      const upgraded: Sandbox = {
        ...sandbox,
        env: { ...sandbox.env, PATH: `${upgrade}${delimiter}${sandbox.env.PATH}` },
      };
      const { stdout } = await run('node', ['--version'], { env: upgraded.env });
      expect(stdout.trim()).toMatch(/^v24\./);
      const committed = await Promise.all(
        COMMITTED.map((name) => readFile(join(original, name), 'utf8')),
      );
      await cairn(upgraded, 'add', UPGRADED);
      await session(
        upgraded,
        'Did the team upgrade Node, and was anything reinstalled?',
        async () => {
          // OpenCode started `cairn mcp` through PATH, in the project, on the new Node.
          const servers = (await processesIn(original)).filter((p) => p.argv.includes('mcp'));
          expect(servers.length).toBeGreaterThan(0);
          for (const child of servers) expect(child.exe).toBe(realpathSync(node24Path()!));
        },
      );
      // The plugin (through the committed loader) injected the unit the prompt asked about.
      expect(model.requestsContaining(UPGRADED).length).toBeGreaterThan(0);
      const after = await Promise.all(
        COMMITTED.map((name) => readFile(join(original, name), 'utf8')),
      );
      expect(after).toEqual(committed);
    },
  );
});
