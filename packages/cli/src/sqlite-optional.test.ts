import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLITE_DRIVER_FIX } from '@cairn/engine';
import { node24Path } from '@cairn/node24';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// better-sqlite3 is an optional dependency: where its native build fails,
// npm installs the CLI without it. These tests run the built CLI from a copy
// of dist/ that has no node_modules beside it, so the addon really is
// missing (the bundle holds everything else a hook and add/search need).

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const inPlaceBin = join(dist, 'bin.cjs');
const node24 = node24Path();
const major = Number(process.versions.node.split('.')[0]);

let install: TempProject;
let project: TempProject;
let bin: string;
beforeEach(async () => {
  install = await makeTempProject('cairn-no-addon-');
  project = await makeTempProject();
  cpSync(dist, join(install.root, 'dist'), {
    recursive: true,
    filter: (source) => !source.endsWith('.map'),
  });
  bin = join(install.root, 'dist', 'bin.cjs');
  // The premise: nothing on the copy's resolution path provides the addon
  // (asked in a child with the CLI's environment: pnpm's NODE_PATH is not in it).
  const probe = `require('node:module').createRequire(${JSON.stringify(bin)}).resolve('better-sqlite3')`;
  expect(spawnSync(process.execPath, ['-e', probe], { env: childEnv() }).status).not.toBe(0);
});
afterEach(async () => {
  await project.cleanup();
  await install.cleanup();
});

function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = join(project.root, 'home');
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...extra };
}

function cairn(node: string, args: string[], input?: string, extra: NodeJS.ProcessEnv = {}) {
  const argv = args[0] === 'in-place' ? [inPlaceBin, ...args.slice(1)] : [bin, ...args];
  const result = spawnSync(node, argv, {
    cwd: project.root,
    input,
    encoding: 'utf8',
    env: childEnv(extra),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const payload = () =>
  JSON.stringify({
    session_id: 'no-addon-session',
    transcript_path: join(project.root, 'transcript.jsonl'),
    cwd: project.root,
    hook_event_name: 'UserPromptSubmit',
    prompt: 'how do we install packages here, pnpm?',
  });

const FIX_PARTS = ['python3, make, g++', 'npm i -g @cairn/cli', 'npm rebuild better-sqlite3'];

describe.skipIf(major >= 22)('Node 20 without better-sqlite3', () => {
  it('a hook exits 0 with exactly one warning line on stderr naming the fix', () => {
    const init = cairn(process.execPath, ['init']);
    expect(init.code, init.stderr).toBe(0);
    expect(cairn(process.execPath, ['add', 'We install packages with pnpm']).code).toBe(0);
    const hook = cairn(process.execPath, ['hook', 'claude-code', 'UserPromptSubmit'], payload());
    expect(hook.code).toBe(0);
    const lines = hook.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^cairn hook claude-code UserPromptSubmit: warning: BACKEND_UNAVAILABLE/,
    );
    for (const part of FIX_PARTS) expect(lines[0]).toContain(part);
    expect(lines[0]).toContain('Node >= 22.16');
  });

  it('doctor names the fix and exits 1; with the addon it is ok', () => {
    // The in-place build (its node_modules resolve every harness) with the
    // addon hidden by the loader's test-only switch.
    expect(cairn(process.execPath, ['in-place', 'init']).code).toBe(0);
    expect(cairn(process.execPath, ['in-place', 'doctor']).code).toBe(0);
    const hidden = { CAIRN_TEST_HIDE_BETTER_SQLITE3: '1' };
    const doctor = cairn(process.execPath, ['in-place', 'doctor'], undefined, hidden);
    expect(doctor.code, doctor.stderr).toBe(1);
    expect(doctor.stdout).toMatch(
      /^ {2}! error no SQLite driver loads on Node 20\..+ — run Cairn on Node >= 22\.16/m,
    );
    for (const part of FIX_PARTS) expect(doctor.stdout).toContain(part);
    const json = cairn(process.execPath, ['in-place', 'doctor', '--json'], undefined, hidden);
    expect(JSON.parse(json.stdout).findings).toContainEqual(
      expect.objectContaining({ severity: 'error', area: 'database', fix: SQLITE_DRIVER_FIX }),
    );
  });
});

describe.skipIf(major >= 22)('`cairn install` where no SQLite driver loads', () => {
  it('refuses (exit 1) with the command that fixes it, and changes nothing', () => {
    const hidden = { CAIRN_TEST_HIDE_BETTER_SQLITE3: '1' };
    expect(cairn(process.execPath, ['in-place', 'init']).code).toBe(0);
    const before = readdirSync(project.root).sort();
    for (const args of [
      ['install', 'claude-code'],
      ['install', 'codex', '--dry-run'],
    ]) {
      const run = cairn(process.execPath, ['in-place', ...args], undefined, hidden);
      expect(run.code, run.stdout).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^cairn: BACKEND_UNAVAILABLE: Cannot install Cairn for (claude-code|codex): no SQLite driver loads on Node 20\./,
      );
      for (const part of FIX_PARTS) expect(run.stderr).toContain(part);
    }
    expect(readdirSync(project.root).sort()).toEqual(before);
    // With the addon the same install goes through.
    expect(cairn(process.execPath, ['in-place', 'install', 'claude-code']).code).toBe(0);
  });
});

describe.skipIf(!node24)('Node 24 without better-sqlite3: node:sqlite does the work', () => {
  it('add, search (through the SQLite index) and a hook work', () => {
    const node = node24!;
    expect(cairn(node, ['init']).code).toBe(0);
    expect(cairn(node, ['add', 'We install packages with pnpm']).code).toBe(0);
    const search = cairn(node, ['search', 'pnpm', '--json']);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('We install packages with pnpm');
    expect(search.stderr).toBe('');
    expect(existsSync(join(project.root, '.cairn', 'index', 'search.sqlite'))).toBe(true);
    const hook = cairn(node, ['hook', 'claude-code', 'UserPromptSubmit'], payload());
    expect(hook.code).toBe(0);
    expect(hook.stderr).toBe('');
    expect(hook.stdout).toContain('We install packages with pnpm');
  });
});
