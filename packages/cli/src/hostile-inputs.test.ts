import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cairnIndexPath, cairnStatePath } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
let outside: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  outside = await makeTempProject('cairn-outside-');
});
afterEach(async () => {
  await project.cleanup();
  await outside.cleanup();
});

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const cairn = (args: string[], input?: string) => cli.run(args, input);
const state = (name: string) => join(cairnStatePath(project.root), name);

/** A Claude Code hook payload for this project. */
async function hookPayload(event: 'UserPromptSubmit' | 'SessionEnd'): Promise<string> {
  const transcript = join(project.root, 'transcript.jsonl');
  await writeFile(transcript, '');
  const base = { session_id: 's1', cwd: project.root, transcript_path: transcript };
  return JSON.stringify(
    event === 'SessionEnd'
      ? { ...base, hook_event_name: event, reason: 'other' }
      : { ...base, hook_event_name: event, prompt: 'We decided to ship on Monday.' },
  );
}

/** A file outside the project that a link points to; returns a check that it is unchanged. */
async function outsideVictim(name: string): Promise<{ path: string; unchanged(): Promise<void> }> {
  const path = join(outside.root, name);
  await writeFile(path, 'outside, never to be written\n');
  return {
    path,
    unchanged: async () =>
      expect(await readFile(path, 'utf8')).toBe('outside, never to be written\n'),
  };
}

describe('links under .cairn/state and .cairn/index are never followed', () => {
  it('a hook with a linked lifecycle log and a corrupt lineage.db fails open and writes nothing outside', async () => {
    cairn(['init']);
    expect(cairn(['hook', 'claude-code', 'SessionEnd'], await hookPayload('SessionEnd')).code).toBe(
      0,
    );
    expect(existsSync(state('lineage.db'))).toBe(true);
    for (const suffix of ['-wal', '-shm']) await rm(state(`lineage.db${suffix}`), { force: true });
    await writeFile(state('lineage.db'), 'this is not a SQLite database, it is damaged');
    const victim = await outsideVictim('victim.jsonl');
    await rm(state('lifecycle-errors.jsonl'), { force: true });
    await symlink(victim.path, state('lifecycle-errors.jsonl'));
    for (const event of ['UserPromptSubmit', 'SessionEnd'] as const) {
      const run = cairn(['hook', 'claude-code', event], await hookPayload(event));
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('INVALID_PATH');
    }
    await victim.unchanged();
  });

  it.each([
    ['lineage.db', 'state'],
    ['heads.db', 'state'],
    ['search.sqlite', 'index'],
  ])('a linked %s is refused, never written, and every command says so', async (name, folder) => {
    cairn(['init']);
    cairn(['add', 'The staging cluster is called kestrel.']);
    const dir = folder === 'state' ? cairnStatePath(project.root) : cairnIndexPath(project.root);
    await mkdir(dir, { recursive: true });
    for (const suffix of ['', '-wal', '-shm'])
      await rm(join(dir, `${name}${suffix}`), { force: true });
    const victim = await outsideVictim(name);
    await symlink(victim.path, join(dir, name));
    for (const event of ['UserPromptSubmit', 'SessionEnd'] as const) {
      expect(cairn(['hook', 'claude-code', event], await hookPayload(event)).code).toBe(0);
    }
    for (const args of [['search', 'kestrel'], ['reindex'], ['threads']]) {
      const run = cairn(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`INVALID_PATH: Refusing to use ${join(dir, name)}`);
    }
    await victim.unchanged();
    expect(existsSync(`${victim.path}-wal`)).toBe(false);
    expect(existsSync(`${victim.path}-shm`)).toBe(false);
  });

  it('a linked state folder is refused for the lineage store', async () => {
    cairn(['init']);
    await rm(cairnStatePath(project.root), { recursive: true, force: true });
    await symlink(outside.root, cairnStatePath(project.root));
    const before = await snapshotTree(outside.root);
    const run = cairn(
      ['lifecycle', 'session-end'],
      JSON.stringify({ agentId: 'a', sessionKey: 's' }),
    );
    expect(run.stderr).toContain('INVALID_PATH');
    expect(await snapshotTree(outside.root)).toEqual(before);
  });
});

describe('--root', () => {
  it('refuses a root that does not exist, for write commands too, and creates nothing', async () => {
    const before = await snapshotTree(project.root);
    for (const args of [
      ['init', '--root', 'missing/deeper'],
      ['add', 'A note that has nowhere to go.', '--root', 'missing/deeper'],
      ['write', '--root', '../../missing-too'],
      ['status', '--root', 'missing'],
    ]) {
      const run = cairn(args, '# x\n');
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^cairn: INVALID_PATH: The project root .* does not exist/);
    }
    const top = cairn(['status', '--root', '../'.repeat(40)]);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('is the file-system root');
    // A hook never fails the agent: a missing root is no project, and nothing is created.
    const hook = cairn(['hook', 'claude-code', 'SessionEnd', '--root', 'missing'], '{}');
    expect(hook.code).toBe(0);
    await writeFile(join(project.root, 'a-file'), 'x');
    const file = cairn(['init', '--root', 'a-file']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('is not a folder');
    await rm(join(project.root, 'a-file'));
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it.runIf(process.platform === 'linux')(
    'answers for /proc/self instead of spinning',
    () => {
      const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
      for (const args of [['add', 'spin?'], ['init'], ['search', 'x'], ['reindex']]) {
        const run = spawnSync(process.execPath, [bin, ...args, '--root', '/proc/self'], {
          cwd: project.root,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: join(project.root, 'home') },
          // A safety net only: the assertion is that it exited by itself.
          timeout: 60_000,
        });
        expect(run.signal, `${args[0]} was killed`).toBeNull();
        expect([0, 1]).toContain(run.status);
        // `init` cannot write there; the others find no project there and say so.
        if (run.status === 1) {
          expect(run.stderr).toMatch(
            /^cairn: (WRITE_FAILED|write_failed|NOT_FOUND: not initialized)/m,
          );
        }
      }
    },
    70_000,
  );
});

const runAsNobody =
  process.platform === 'linux' &&
  process.getuid?.() === 0 &&
  spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']).status === 0;

describe('permission errors', () => {
  it.skipIf(!runAsNobody)(
    'EACCES is WRITE_FAILED or READ_FAILED with exit 1 (needs root and setpriv to run as nobody)',
    async () => {
      cairn(['init']);
      cairn(['add', 'A unit owned by root.']);
      await chmod(project.root, 0o755);
      await chmod(outside.root, 0o755);
      const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
      const asNobody = (args: string[]) =>
        spawnSync(
          'setpriv',
          ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, ...args],
          {
            cwd: project.root,
            encoding: 'utf8',
            env: { PATH: process.env.PATH, HOME: join(outside.root, 'nobody-home') },
          },
        );
      for (const args of [
        ['add', 'Nobody may write here.'],
        ['reindex'],
        ['write', '--allow-empty'],
      ]) {
        const run = asNobody(args);
        expect(run.status, run.stderr).toBe(1);
        expect(run.stderr).toMatch(/^cairn: WRITE_FAILED: /m);
      }
      await chmod(join(project.root, '.cairn/memory/MEMORY.md'), 0o600);
      const read = asNobody(['read', '--json']);
      expect(read.status, read.stderr).toBe(1);
      expect(JSON.parse(read.stdout).error.code).toBe('READ_FAILED');

      // A writable folder with a file nobody can read: the file is never replaced.
      const memory = join(project.root, '.cairn/memory');
      await chmod(memory, 0o777);
      for (const dir of ['.cairn/state', '.cairn/state/locks']) {
        await mkdir(join(project.root, dir), { recursive: true });
        await chmod(join(project.root, dir), 0o777);
      }
      const [daily] = (await readdir(memory)).filter((name) =>
        /^\d{4}-\d{2}-\d{2}\.md$/.test(name),
      );
      await chmod(join(memory, daily!), 0o600);
      const before = await snapshotTree(memory);
      const add = asNobody(['add', 'Another unit for the same day.']);
      expect(add.status, add.stderr).toBe(1);
      expect(add.stderr).toContain('Cannot read');
      const end = asNobody(['lifecycle', 'session-end']);
      expect(end.status).not.toBe(70);
      expect(await snapshotTree(memory)).toEqual(before);
    },
  );
});
