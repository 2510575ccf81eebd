import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openCairn } from '@cairn/engine';
import { type ModelServer, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './claude-env.fixture';

/**
 * In a workspace Claude Code has not trusted (no trust prompt accepted, as
 * in CI), it ignores the project's `.mcp.json` approval and `mcp__cairn`
 * allow rule; hooks still run. The user-scope registration works there.
 */
const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
const REMEMBERED = 'Untrusted workspaces need the user-scope registration.';
const TIMEOUT = 180_000;

const skip = !existsSync(CLAUDE)
  ? `the pinned Claude Code CLI is missing (${CLAUDE}); run pnpm install`
  : !existsSync(CLI)
    ? `the cairn CLI is not built (${CLI}); build packages/cli`
    : undefined;

let base: string;
let server: ModelServer;

const env = (home: string) =>
  claudeEnv({ home, modelUrl: server.url, pathDirs: [join(base, 'bin')] });

const exec = (file: string, args: string[], cwd: string, home: string) =>
  run(file, args, { cwd, env: env(home), timeout: TIMEOUT, maxBuffer: 16 * 1024 * 1024 });

/** A fresh project and HOME, Cairn installed in `scope`, one untrusted `claude -p` session. */
async function untrustedSession(name: string, scope: 'project' | 'user') {
  const project = join(base, name, 'project');
  const home = join(base, name, 'home');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  await run('git', ['init', '-q', project]);
  await exec('cairn', ['init'], project, home);
  const install = await exec('cairn', ['install', 'claude-code', '--scope', scope], project, home);
  const { stdout } = await exec(
    CLAUDE,
    ['-p', 'Remember this.', '--output-format', 'json'],
    project,
    home,
  );
  const handle = await openCairn(project, { env: {} });
  try {
    const units = (await handle.list()).map((unit) => unit.text);
    const summaries = handle
      .threads('claude-code')
      .flatMap((thread) => thread.lineage)
      .filter((id) => handle.expand(id, 'claude-code').node.kind === 'session_summary');
    return { install: install.stdout, result: JSON.parse(stdout), units, summaries };
  } finally {
    handle.closeWorking();
  }
}

describe.skipIf(skip !== undefined)(
  `claude-code untrusted workspace e2e${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    beforeAll(async () => {
      base = realpathSync(await mkdtemp(join(tmpdir(), 'cairn-cc-trust-')));
      await mkdir(join(base, 'bin'));
      await symlink(CLI, join(base, 'bin', 'cairn'));
      server = await startModelServer({
        text: 'Noted.',
        toolCalls: [{ tool: /^mcp__cairn__memory_add$/, input: { text: REMEMBERED } }],
      });
    }, TIMEOUT);

    afterAll(async () => {
      await server?.close();
      if (base) await rm(base, { recursive: true, force: true });
    });

    it('project scope: hooks run, the memory tools do not, and install says so', {
      timeout: TIMEOUT,
    }, async () => {
      const run = await untrustedSession('project-scope', 'project');
      expect(run.install).toMatch(/not trusted yet.*--scope user/s);
      expect(run.summaries).toHaveLength(1);
      expect(run.units).not.toContain(REMEMBERED);
    });

    it('user scope: the memory tools work without the trust prompt', {
      timeout: TIMEOUT,
    }, async () => {
      const run = await untrustedSession('user-scope', 'user');
      expect(run.install).toMatch(/every workspace, trusted or not/);
      expect(run.result.is_error).toBe(false);
      expect(run.summaries).toHaveLength(1);
      expect(run.units).toContain(REMEMBERED);
    });
  },
);
