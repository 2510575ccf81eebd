import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openCairn } from '@cairn/engine';
import { type ModelServer, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The workspace's Node 24 from the npm registry (tools/node24), by path: no dependency just for a test.
import { node24Path } from '../../../tools/node24/index.js';
import { claudeEnv } from './claude-env.fixture';

/**
 * Files a team commits name `cairn`, not this machine's Node and paths: a
 * project installed here keeps working after `cp -a` to another folder, and
 * a second checkout on another HOME works after `cairn install` there.
 */
const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
const REMEMBERED = 'The moved project keeps its memory in the moved folder.';
const TIMEOUT = 180_000;
const COMMITTED = ['.claude/settings.json', '.mcp.json'];

const skip = !existsSync(CLAUDE)
  ? `the pinned Claude Code CLI is missing (${CLAUDE}); run pnpm install`
  : !existsSync(CLI)
    ? `the cairn CLI is not built (${CLI}); build packages/cli`
    : undefined;

let base: string;
let server: ModelServer;

/** Folders put first on PATH: `bin` holds `cairn`; `node-upgrade` a newer `node`. */
let pathDirs = ['bin'];

// `cairn` on PATH, as after `npm i -g @cairn/cli`.
const env = (home: string) =>
  claudeEnv({ home, modelUrl: server.url, pathDirs: pathDirs.map((dir) => join(base, dir)) });

const exec = (file: string, args: string[], cwd: string, home: string) =>
  run(file, args, { cwd, env: env(home), timeout: TIMEOUT, maxBuffer: 16 * 1024 * 1024 });
const cairn = (cwd: string, home: string, ...args: string[]) => exec('cairn', args, cwd, home);

/** What accepting Claude Code's workspace trust prompt records. */
async function trust(home: string, ...dirs: string[]) {
  await mkdir(home, { recursive: true });
  const projects = Object.fromEntries(dirs.map((dir) => [dir, { hasTrustDialogAccepted: true }]));
  await writeFile(join(home, '.claude.json'), JSON.stringify({ projects }));
}

async function session(cwd: string, home: string) {
  const { stdout } = await exec(
    CLAUDE,
    ['-p', 'Remember this about the project.', '--output-format', 'json'],
    cwd,
    home,
  );
  return JSON.parse(stdout) as { is_error: boolean };
}

async function unitTexts(root: string): Promise<string[]> {
  const handle = await openCairn(root, { env: {} });
  try {
    return (await handle.list()).map((unit) => unit.text);
  } finally {
    handle.closeWorking();
  }
}

async function sessionSummaries(root: string): Promise<number> {
  const handle = await openCairn(root, { env: {} });
  try {
    return handle
      .threads('claude-code')
      .flatMap((thread) => thread.lineage)
      .filter((id) => handle.expand(id, 'claude-code').node.kind === 'session_summary').length;
  } finally {
    handle.closeWorking();
  }
}

describe.skipIf(skip !== undefined)(
  `claude-code portable install e2e${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let original: string;
    let home: string;

    beforeAll(async () => {
      base = realpathSync(await mkdtemp(join(tmpdir(), 'cairn-cc-portable-')));
      original = join(base, 'project');
      home = join(base, 'home');
      await mkdir(join(base, 'bin'), { recursive: true });
      await symlink(CLI, join(base, 'bin', 'cairn'));
      await mkdir(original, { recursive: true });
      server = await startModelServer({
        text: 'Noted.',
        toolCalls: [{ tool: /^mcp__cairn__memory_add$/, input: { text: REMEMBERED } }],
      });
      await run('git', ['init', '-q', original]);
      await writeFile(join(original, '.gitignore'), '.claude/settings.local.json\n');
      await cairn(original, home, 'install', 'claude-code');
    }, TIMEOUT);

    afterAll(async () => {
      await server?.close();
      if (base) await rm(base, { recursive: true, force: true });
    });

    it('the committed files name `cairn` and no path of this machine', async () => {
      for (const name of COMMITTED) {
        const text = await readFile(join(original, name), 'utf8');
        expect(text).toContain('cairn');
        expect(text).not.toContain(base);
        expect(text).not.toContain(process.execPath);
      }
    });

    it('after cp -a, hooks and memory_add write to the moved project', {
      timeout: TIMEOUT,
    }, async () => {
      const moved = join(base, 'project-moved');
      await run('cp', ['-a', original, moved]);
      await trust(home, moved);
      const result = await session(moved, home);
      expect(result.is_error).toBe(false);
      expect(await unitTexts(moved)).toContain(REMEMBERED);
      expect(await sessionSummaries(moved)).toBe(1);
      expect(await unitTexts(original)).not.toContain(REMEMBERED);
      expect(await sessionSummaries(original)).toBe(0);
    });

    it('a second checkout on another HOME works after `cairn install` there', {
      timeout: TIMEOUT,
    }, async () => {
      const git = (cwd: string, ...args: string[]) =>
        run('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd });
      await git(original, 'add', '-A');
      await git(original, 'commit', '-qm', 'cairn installed');
      const checkout = join(base, 'checkout');
      const other = join(base, 'other-home');
      await git(base, 'clone', '-q', original, checkout);
      await trust(other, checkout);
      await cairn(checkout, other, 'install', 'claude-code');
      // The install there touched no committed file: only the local approval.
      const { stdout } = await git(checkout, 'status', '--porcelain');
      expect(stdout).toBe('');
      expect(existsSync(join(checkout, '.claude', 'settings.local.json'))).toBe(true);
      expect((await session(checkout, other)).is_error).toBe(false);
      expect(await unitTexts(checkout)).toContain(REMEMBERED);
      expect(await sessionSummaries(checkout)).toBe(1);
    });

    it.skipIf(!node24Path())(
      'after a Node upgrade the same files keep working',
      {
        timeout: TIMEOUT,
      },
      async () => {
        // The install ran on this Node (20); `node` on PATH is now another binary, as after
        // `nvm install 24` or `brew upgrade node`.
        await mkdir(join(base, 'node-upgrade'));
        await symlink(node24Path()!, join(base, 'node-upgrade', 'node'));
        pathDirs = ['bin', 'node-upgrade'];
        const { stdout } = await exec('node', ['--version'], original, home);
        expect(stdout.trim()).toMatch(/^v24\./);
        await trust(home, original);
        expect((await session(original, home)).is_error).toBe(false);
        expect(await unitTexts(original)).toContain(REMEMBERED);
        expect(await sessionSummaries(original)).toBe(1);
      },
    );
  },
);
