import { cp, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodexHarness } from './codex-harness';

/**
 * Codex edits its config.toml with a TOML library that puts a new table
 * after the last one, before the comments ending the file: with Cairn's
 * block last, `codex exec --trust` writes `[projects."<path>"]` between
 * Cairn's markers (codex.trust.e2e.test.ts shows it with the real CLI).
 * These tests write the same text Codex writes and check that Cairn's
 * edits keep it, and that a moved project's trust entries are cleaned.
 */
// biome-ignore lint/suspicious/noExplicitAny: parsed TOML is read by known paths in assertions
type Toml = Record<string, any>;
const harness = createCodexHarness();
const ROOT_KEYS = 'model = "gpt-5"\napproval_policy = "never"\n';

let temp: TempProject;
let home: string;
let userConfig: string;

const options = (projectRoot: string, overrides: Partial<HarnessInstallOptions> = {}) => ({
  scope: 'project' as const,
  projectRoot,
  homeDir: home,
  dryRun: false,
  cairnCommand: ['cairn'],
  env: {},
  ...overrides,
});
const read = (path: string) => readFile(path, 'utf8');
const userProblems = async (projectRoot: string) =>
  (await harness.status(options(projectRoot, { scope: 'user' }))).problems;

/** What `codex exec --trust` does to a config whose last block is Cairn's. */
async function codexTrusts(path: string): Promise<void> {
  const text = await read(userConfig);
  const lines = text.trimEnd().split('\n');
  const end = lines.pop()!;
  expect(end).toMatch(/^# <<< cairn: /);
  const table = [`[projects.${JSON.stringify(path)}]`, 'trust_level = "trusted"'];
  await writeFile(userConfig, `${[...lines, '', ...table, end].join('\n')}\n`);
}

beforeEach(async () => {
  temp = await makeTempProject('cairn-codex-regions-');
  home = join(temp.root, 'home');
  userConfig = join(home, '.codex', 'config.toml');
  await mkdir(join(home, '.codex'), { recursive: true });
  await writeFile(userConfig, ROOT_KEYS);
});
afterEach(() => temp.cleanup());

describe("a table Codex wrote inside Cairn's block", () => {
  it('is kept by uninstall and moved out by install; doctor names it until then', async () => {
    const project = join(temp.root, 'project');
    await mkdir(project);
    await harness.install(options(project));
    await codexTrusts(project);
    expect((await userProblems(project)).join('\n')).toMatch(
      /holds settings that are not Cairn's \(\[projects\."[^"]+"\]\): run `cairn install codex`/,
    );

    await harness.uninstall(options(project));
    const left = parse(await read(userConfig)) as Toml;
    expect(left.projects).toEqual({ [project]: { trust_level: 'trusted' } });
    expect(left.hooks).toBeUndefined();

    await harness.install(options(project));
    const text = await read(userConfig);
    // Cairn's block now stands before the table, so Codex's next table lands after both.
    expect(text.indexOf(`[projects.${JSON.stringify(project)}]`)).toBeGreaterThan(
      text.indexOf('# <<< cairn: hook trust'),
    );
    expect((parse(text) as Toml).projects[project]).toEqual({ trust_level: 'trusted' });
    expect(await userProblems(project)).toEqual([]);
  });

  it("keeps the trust of the user's own hook in the same hooks file", async () => {
    const project = join(temp.root, 'project');
    const hooksFile = join(project, '.codex', 'hooks.json');
    await mkdir(join(project, '.codex'), { recursive: true });
    const mine = {
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo me' }] }] },
    };
    await writeFile(hooksFile, JSON.stringify(mine));
    await harness.install(options(project));
    const key = `${hooksFile}:session_start:0:0`;
    const text = await read(userConfig);
    const end = text.lastIndexOf('# <<< cairn:');
    const entry = `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "sha256:${'0'.repeat(64)}"\n`;
    await writeFile(userConfig, `${text.slice(0, end)}${entry}${text.slice(end)}`);

    await harness.uninstall(options(project));
    const left = parse(await read(userConfig)) as Toml;
    expect(Object.keys(left.hooks.state)).toEqual([key]);
  });
});

describe('a project that moved', () => {
  it('has its stale trust entries removed by `cairn install codex` in its new folder', async () => {
    const original = join(temp.root, 'project');
    const copy = join(temp.root, 'copy');
    const moved = join(temp.root, 'moved');
    await mkdir(original);
    await harness.install(options(original));
    await cp(original, copy, { recursive: true });
    await harness.install(options(copy));
    await rename(original, moved);

    // Doctor sees both halves: the moved hooks are not trusted, the old entries are stale.
    const status = await harness.status(options(moved));
    expect(status.problems.join('\n')).toMatch(/Cairn SessionStart hook: it is not trusted/);
    expect((await userProblems(moved)).join('\n')).toContain(
      `trusts Cairn's hooks in ${join(original, '.codex', 'hooks.json')}, which is gone`,
    );

    await harness.install(options(moved));
    const keys = Object.keys((parse(await read(userConfig)) as Toml).hooks.state);
    expect(keys.filter((key) => key.startsWith(`${original}/`))).toEqual([]);
    expect(keys.filter((key) => key.startsWith(`${moved}/`))).toHaveLength(6);
    // The copy still runs Cairn: its trust stays.
    expect(keys.filter((key) => key.startsWith(`${copy}/`))).toHaveLength(6);
    expect(await read(userConfig)).not.toContain(original);
    expect(await userProblems(moved)).toEqual([]);
    expect((await harness.status(options(moved))).problems.join('\n')).not.toMatch(/not trusted/);
  });
});
