import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openCairn } from '@cairn/engine';
import {
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
} from '@cairn/testkit';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_BIN, codexAvailable } from './testing/app-server-client';
import { makeCodexHome } from './testing/codex-home';
import { describeRun, runCodex } from './testing/run-codex';

/**
 * The user follows Cairn's own advice and runs `codex exec --trust` in a
 * project that has Cairn's hooks: Codex writes `[projects."<path>"]` into
 * its config.toml (at the end of the last table, inside a Cairn block that
 * ends the file). Uninstall and reinstall must still work and keep Codex's
 * table; after `mv`, doctor says the hooks are off, and `cairn install
 * codex` in the new folder drops the old trust entries and the thread
 * carries on.
 */
const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const SEED = 'Codex trust e2e: the staging cluster is called plover-stage.';
const END = '# <<< cairn: hook trust for ';

const skipReason = codexAvailable() ? undefined : `the pinned Codex CLI is missing (${CODEX_BIN})`;
if (skipReason) console.warn(`codex trust e2e skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('codex e2e: trust, reinstall and a move', () => {
  let temp: TempProject;
  let server: ModelServer;
  let env: Record<string, string>;
  let project: string;
  let userConfig: string;

  const cairn = async (cwd: string, ...args: string[]) => {
    try {
      const { stdout } = await run(process.execPath, [CLI, ...args], {
        cwd,
        env: { ...process.env, ...env },
      });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: `${failed.stdout}${failed.stderr}` };
    }
  };
  /** `codex exec --trust` in `cwd`; the model requests it made. */
  const trustedSession = async (cwd: string) => {
    const before = server.requests.length;
    // The prompt asks about the seeded unit: its pack shows the hooks ran.
    const question = 'Which staging cluster do we use?';
    const args = ['exec', '--trust', '--skip-git-repo-check', '--json', '-C', cwd, question];
    const result = await runCodex(args, { cwd, env, timeoutMs: 150_000 });
    expect(result.code, describeRun(args, result)).toBe(0);
    return server.requests.slice(before);
  };
  const injected = (requests: { text: string }[]) =>
    requests.some((request) => request.text.includes(SEED));
  const threads = async (root: string) => {
    const memory = await openCairn(root, { env: {} });
    try {
      return memory.threads('codex').map((thread) => [thread.threadKey, thread.sessions]);
    } finally {
      memory.closeWorking();
    }
  };
  /** The text between Cairn's trust markers (where Codex's own table must not stay). */
  const insideBlock = (text: string) =>
    text.slice(text.indexOf('# >>> cairn: hook trust'), text.indexOf(END));

  beforeAll(async () => {
    temp = await makeTempProject('cairn-codex-trust-');
    project = join(temp.root, 'project');
    await mkdir(project, { recursive: true });
    await mkdir(join(temp.root, 'bin'));
    await symlink(CLI, join(temp.root, 'bin', 'cairn'));
    server = await startModelServer({ text: 'Done.' });
    // The project is not trusted yet: `--trust` is the user's answer.
    env = await makeCodexHome({
      home: join(temp.root, 'home'),
      modelUrl: server.url,
      trusted: [],
      pathDirs: [join(temp.root, 'bin')],
    });
    userConfig = join(env.CODEX_HOME!, 'config.toml');
    expect((await cairn(project, 'init')).code).toBe(0);
    expect((await cairn(project, 'add', SEED)).code).toBe(0);
    expect((await cairn(project, 'install', 'codex')).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await temp?.cleanup();
  });

  it("`codex exec --trust` writes its table outside Cairn's block; uninstall and install then work", async () => {
    expect(injected(await trustedSession(project))).toBe(true);
    const text = await readFile(userConfig, 'utf8');
    expect(parse(text).projects).toEqual({ [project]: { trust_level: 'trusted' } });
    expect(insideBlock(text)).not.toContain('[projects.');
    expect(await cairn(project, 'uninstall', 'codex')).toMatchObject({ code: 0 });
    const left = parse(await readFile(userConfig, 'utf8'));
    expect(left.projects).toEqual({ [project]: { trust_level: 'trusted' } });
    expect(left.hooks).toBeUndefined();
    expect(await cairn(project, 'install', 'codex')).toMatchObject({ code: 0 });
    expect(await cairn(project, 'doctor')).toMatchObject({ code: 0 });
  }, 180_000);

  it("keeps Codex's table written inside a block an earlier Cairn left at the end", async () => {
    // The layout earlier installs wrote: Cairn's block last, the project not trusted yet.
    const lines = (await readFile(userConfig, 'utf8')).split('\n');
    const begin = lines.findIndex((line) => line.startsWith('# >>> cairn: hook trust'));
    const end = lines.findIndex((line) => line.startsWith(END));
    const block = lines.splice(begin, end - begin + 1);
    const rest = lines.join('\n').replace(/\[projects\.[^\n]*\ntrust_level = "trusted"\n/, '');
    await writeFile(userConfig, `${rest.trimEnd()}\n\n${block.join('\n')}\n`);

    expect(injected(await trustedSession(project))).toBe(true);
    // Codex put its table between Cairn's markers.
    expect(insideBlock(await readFile(userConfig, 'utf8'))).toContain(
      `[projects.${JSON.stringify(project)}]`,
    );
    const doctor = await cairn(project, 'doctor');
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain("holds settings that are not Cairn's");
    expect(await cairn(project, 'uninstall', 'codex')).toMatchObject({ code: 0 });
    expect(await cairn(project, 'install', 'codex')).toMatchObject({ code: 0 });
    const text = await readFile(userConfig, 'utf8');
    expect(parse(text).projects).toEqual({ [project]: { trust_level: 'trusted' } });
    expect(insideBlock(text)).not.toContain('[projects.');
    expect(await cairn(project, 'doctor')).toMatchObject({ code: 0 });
  }, 180_000);

  it('after `mv`, doctor says the hooks are off; install there cleans the old entries and the thread goes on', async () => {
    const [thread] = await threads(project);
    expect(thread).toEqual([expect.any(String), 2]);
    const moved = join(temp.root, 'moved');
    await rename(project, moved);
    const doctor = await cairn(moved, 'doctor');
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/Cairn SessionStart hook: it is not trusted/);

    expect(await cairn(moved, 'install', 'codex')).toMatchObject({ code: 0 });
    const config = parse(await readFile(userConfig, 'utf8')) as {
      hooks: { state: Record<string, unknown> };
    };
    const keys = Object.keys(config.hooks.state);
    expect(keys.filter((key) => key.startsWith(`${project}/`))).toEqual([]);
    expect(keys.filter((key) => key.startsWith(`${moved}/`))).toHaveLength(6);

    expect(injected(await trustedSession(moved))).toBe(true);
    expect(await threads(moved)).toEqual([[thread![0], 3]]);
    expect(await cairn(moved, 'doctor')).toMatchObject({ code: 0 });
  }, 240_000);
});
