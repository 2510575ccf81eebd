import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openCairn } from '@cairn/engine';
import {
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The workspace's Node 24 from the npm registry (tools/node24), by path: no dependency just for a test.
import { node24Path } from '../../../tools/node24/index.js';
import { CODEX_BIN, codexAvailable } from './testing/app-server-client';
import { describeRun, runCodex } from './testing/run-codex';

/**
 * The committed .codex/ files name `cairn` and no path: a project copied
 * with `cp -a` works after `cairn install codex` there (Codex keys its hook
 * trust by the hooks file's path, in the user's config), and its hooks and
 * memory_add write to the copy, not the original. After a Node upgrade (a
 * newer `node` first on PATH) the same files keep working, with no reinstall.
 */
const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const ADDED = 'Codex portable e2e: the copy keeps its own memory.';
const UPGRADED = 'Codex portable e2e: the team upgraded Node to 24 last week.';
const COMMITTED = ['hooks.json', 'config.toml'];

const skipReason = codexAvailable() ? undefined : `the pinned Codex CLI is missing (${CODEX_BIN})`;
if (skipReason) console.warn(`codex portable e2e skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('codex e2e: a moved project', () => {
  let temp: TempProject;
  let server: ModelServer;
  let env: Record<string, string>;
  let home: string;
  let original: string;
  let moved: string;

  const cairn = (cwd: string, ...args: string[]) =>
    run('cairn', args, { cwd, env: { ...process.env, ...env } });
  /** One `codex exec` session in `cwd`; Cairn's MCP server required so the tool is there on the only turn. */
  const session = async (cwd: string) => {
    const args = ['exec', '-c', 'mcp_servers.cairn.required=true', '--skip-git-repo-check'];
    const result = await runCodex([...args, '--json', '-C', cwd, 'Remember this.'], {
      cwd,
      env,
      timeoutMs: 150_000,
    });
    expect(result.code, describeRun(args, result)).toBe(0);
  };
  const codexLineage = (root: string) => {
    const memory = openCairn(root, { env: {} });
    try {
      return memory.threads('codex').flatMap((thread) => thread.lineage);
    } finally {
      memory.closeWorking();
    }
  };
  const units = async (root: string) => {
    const memory = openCairn(root, { env: {} });
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
    await mkdir(join(home, '.codex'), { recursive: true });
    await mkdir(original, { recursive: true });
    await mkdir(join(temp.root, 'bin'));
    await symlink(CLI, join(temp.root, 'bin', 'cairn'));
    env = {
      PATH: `${join(temp.root, 'bin')}${delimiter}${process.env.PATH}`,
      HOME: home,
      CODEX_HOME: join(home, '.codex'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_STATE_HOME: join(home, '.local/state'),
      CODEX_E2E_KEY: 'dummy',
    };
    server = await startModelServer({
      text: 'Done.',
      toolCalls: [{ tool: /memory_add/, input: { text: ADDED } }],
    });
    await writeFile(
      join(home, '.codex', 'config.toml'),
      [
        'model = "e2e-model"',
        'model_provider = "e2e"',
        'approval_policy = "never"',
        'sandbox_mode = "read-only"',
        '',
        '[model_providers.e2e]',
        'name = "e2e"',
        `base_url = "${server.url}/v1"`,
        'env_key = "CODEX_E2E_KEY"',
        'wire_api = "responses"',
        '',
        // The user's answers to Codex's trust prompt for both folders.
        `[projects.${JSON.stringify(original)}]`,
        'trust_level = "trusted"',
        '',
        `[projects.${JSON.stringify(moved)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
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
    expect(codexLineage(moved).length).toBeGreaterThan(0);
    expect(await units(original)).not.toContain(ADDED);
    expect(codexLineage(original)).toEqual([]);
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
      await session(original);
      // SessionStart's context (the newest units) reached the model: the hook ran.
      const requests = server.requests.slice(before);
      expect(requests.some((request) => request.text.includes(UPGRADED))).toBe(true);
      expect(await units(original)).toContain(ADDED);
      expect(codexLineage(original).length).toBeGreaterThan(0);
      // Nothing was re-trusted or rewritten for the new Node.
      expect(await readFile(join(home, '.codex', 'config.toml'), 'utf8')).toBe(configBefore);
    },
    180_000,
  );
});
