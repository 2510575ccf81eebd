import { spawn } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  cairnStatePath,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  memoryLongTermPath,
  memoryWorkspacePath,
  parseMemoryDocument,
} from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const cairn = (args: string[], input?: string | Uint8Array) => cli.run(args, input);
const memory = () => readFile(memoryLongTermPath(project.root), 'utf8');

/** A PID that surely belongs to no process: a child that was spawned and reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('cairn write refuses what would lose MEMORY.md', () => {
  it('refuses empty stdin (exit 2, file unchanged) unless --allow-empty', async () => {
    cairn(['init']);
    const before = await memory();
    for (const input of ['', '  \n\n']) {
      const result = cairn(['write', '--json'], input);
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stdout).error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { reason: 'empty' },
      });
      expect(await memory()).toBe(before);
    }
    expect(cairn(['write'], '').stderr).toMatch(/^cairn: INVALID_INPUT: .*--allow-empty/);
    const allowed = cairn(['write', '--allow-empty'], '');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await memory()).toBe('');
  });

  it('refuses binary input on stdin or --file: NUL bytes, invalid UTF-8', async () => {
    cairn(['init']);
    const before = await memory();
    const nul = Buffer.from('# Memory\n\0\0\0\n');
    const invalid = Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]);
    await writeFile(join(project.root, 'bad.md'), invalid);
    for (const [args, input] of [
      [['write'], nul],
      [['write'], invalid],
      [['write', '--file', 'bad.md'], undefined],
    ] as const) {
      const result = cairn([...args, '--json'], input);
      expect(result.code).toBe(2);
      expect(JSON.parse(result.stdout).error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { reason: 'binary' },
      });
      expect(await memory()).toBe(before);
    }
  });

  it('refuses a head region Cairn could not find again', async () => {
    cairn(['init']);
    const before = await memory();
    for (const input of [
      `a\n${HEAD_START_MARKER}\nx\n${HEAD_END_MARKER}\n${HEAD_END_MARKER}\n`,
      `a\n${HEAD_END_MARKER}\nx\n${HEAD_START_MARKER}\n`,
    ]) {
      expect(cairn(['write'], input).code).toBe(2);
      expect(await memory()).toBe(before);
    }
    expect(cairn(['write'], `a\n${HEAD_START_MARKER}\nx\n${HEAD_END_MARKER}\n`).code).toBe(0);
  });
});

describe('no acknowledged write is lost', () => {
  /**
   * "Not lost": a head render merges the user's text with the managed
   * region (the region is appended to a file without one), so after the
   * storm MEMORY.md is the acknowledged text, optionally followed by one
   * blank line and the head region.
   */
  it('cairn write against four concurrent session ends, 40 rounds', {
    timeout: 180_000,
  }, async () => {
    cairn(['init']);
    const region = new RegExp(`^(\\n${HEAD_START_MARKER}\\n[\\s\\S]*\\n${HEAD_END_MARKER}\\n)?$`);
    for (let round = 0; round < 40; round += 1) {
      const text = `# Memory\n\nRound ${round}: the user's own note.\n`;
      // The write starts a little later each round, so across the rounds it
      // lands before, during and after the renders (a sweep, not a wait).
      const delayed = new Promise<void>((resolve) => setTimeout(resolve, (round % 20) * 25));
      const [write, ...ends] = await Promise.all([
        delayed.then(() => cli.start(['write'], text)),
        ...Array.from({ length: 4 }, (_, n) =>
          cli.start(
            ['lifecycle', 'session-end'],
            JSON.stringify({ agentId: `agent-${n}`, sessionKey: `r${round}-${n}` }),
          ),
        ),
      ]);
      expect(write!.code, write!.stderr).toBe(0);
      for (const end of ends) expect(end.code, end.stderr).toBe(0);
      const after = await memory();
      expect(after.startsWith(text), `round ${round}:\n${after}`).toBe(true);
      expect(after.slice(text.length)).toMatch(region);
    }
  });

  it('sixteen `cairn add` against a lock left by a dead process, 5 rounds: every acknowledged add lands', {
    timeout: 180_000,
  }, async () => {
    cairn(['init']);
    const lock = join(cairnStatePath(project.root), 'locks', 'units.lock');
    await mkdir(join(cairnStatePath(project.root), 'locks'), { recursive: true });
    const pid = await deadPid();
    let acknowledged = 0;
    for (let round = 0; round < 5; round += 1) {
      await writeFile(lock, `${pid}\n2026-01-01T00:00:00.000Z\n`);
      const runs = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          cli.start(['add', `Host kestrel${round}x${i} runs the build queue.`, '--json']),
        ),
      );
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject({ action: 'created' });
      }
      acknowledged += runs.length;
    }
    const today = `${new Date().toISOString().slice(0, 10)}.md`;
    const parsed = parseMemoryDocument(
      await readFile(join(memoryWorkspacePath(project.root), today), 'utf8'),
      today,
    );
    expect(parsed.issues).toEqual([]);
    expect(parsed.units).toHaveLength(acknowledged);
  });

  it('a lock that is a symbolic link is refused, never followed', async () => {
    cairn(['init']);
    const locks = join(cairnStatePath(project.root), 'locks');
    await mkdir(locks, { recursive: true });
    const outside = join(project.root, 'home', 'outside.txt');
    await mkdir(join(project.root, 'home'), { recursive: true });
    await writeFile(outside, 'not yours');
    await symlink(outside, join(locks, 'units.lock'));
    await symlink(outside, join(locks, 'memory-md.lock'));
    const before = await memory();
    // A link is refused as such (INVALID_PATH, exit 2), not reported as a failed write.
    const add = cairn(['add', 'The build runs on kestrel.', '--json']);
    expect(add.code).toBe(2);
    expect(JSON.parse(add.stdout).error).toMatchObject({
      code: 'INVALID_PATH',
      details: { reason: 'symlink' },
    });
    const write = cairn(['write', '--json'], '# Memory\n\nnew\n');
    expect(write.code).toBe(2);
    expect(JSON.parse(write.stdout).error).toMatchObject({
      code: 'INVALID_PATH',
      details: { reason: 'symlink' },
    });
    expect(await readFile(outside, 'utf8')).toBe('not yours');
    expect(await memory()).toBe(before);
    expect(JSON.parse(cairn(['list', '--json']).stdout).units).toEqual([]);
  });
});
