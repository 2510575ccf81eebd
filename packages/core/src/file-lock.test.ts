import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from './errors';
import { withFileLock } from './file-lock';
import { processStartTime } from './lock-holder';

const fixture = fileURLToPath(new URL('./file-lock.fixture.ts', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A PID that surely belongs to no process: a child that was spawned and reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

/** A long-lived child running the fixture; `run` appends one tag under the lock. */
function worker() {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fixture], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map<string, (reply: string) => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const tag = line.split(' ')[1]!;
    waiting.get(tag)?.(line);
    waiting.delete(tag);
  });
  return {
    run(lock: string, log: string, tag: string): Promise<string> {
      return new Promise((resolve) => {
        waiting.set(tag, resolve);
        child.stdin!.write(`${lock} ${log} ${tag}\n`);
      });
    },
    stop: () => child.stdin!.end(),
  };
}

describe('withFileLock: stale takeover loses nothing', () => {
  const workers: ReturnType<typeof worker>[] = [];
  beforeAll(() => {
    for (let i = 0; i < 6; i += 1) workers.push(worker());
  });
  afterAll(() => {
    for (const w of workers) w.stop();
  });

  it('200 rounds of a dead-PID lock and 8 concurrent acquirers (6 processes + 2 in-process)', async () => {
    const pid = await deadPid();
    expect(() => process.kill(pid, 0)).toThrow();
    const lock = join(dir, 'locks', 'units.lock');
    await withFileLock(lock, async () => {});
    for (let round = 0; round < 200; round += 1) {
      const log = join(dir, `log-${round}`);
      await writeFile(lock, `${pid}\n2026-01-01T00:00:00.000Z\n`);
      const inProcess = (tag: string) =>
        withFileLock(lock, async () => {
          const before = await readFile(log, 'utf8').catch(() => '');
          await new Promise((resolve) => setImmediate(resolve));
          await writeFile(log, `${before}${tag}\n`);
        }).then(() => `ok ${tag}`);
      const replies = await Promise.all([
        ...workers.map((w, i) => w.run(lock, log, `${round}-${i}`)),
        inProcess(`${round}-a`),
        inProcess(`${round}-b`),
      ]);
      const acked = replies.filter((r) => r.startsWith('ok ')).map((r) => r.slice(3));
      expect(acked).toHaveLength(8);
      const written = (await readFile(log, 'utf8')).trim().split('\n');
      expect(written.sort()).toEqual(acked.sort());
    }
  }, 120_000);
});

describe('withFileLock', () => {
  it('takes over an empty lock and a garbage lock without waiting for a minute', async () => {
    const lock = join(dir, 'empty.lock');
    await writeFile(lock, '');
    await expect(withFileLock(lock, async () => 'ran')).resolves.toBe('ran');
    await writeFile(lock, 'not a pid\n');
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    await expect(withFileLock(lock, async () => 'ran again')).resolves.toBe('ran again');
  });

  it('waits for a live holder and times out with CONFLICT instead of taking it over', async () => {
    const lock = join(dir, 'live.lock');
    await writeFile(lock, `${process.pid}\n${new Date().toISOString()}\n`);
    const error = await withFileLock(lock, async () => 'ran', { timeoutMs: 50 }).catch((e) => e);
    expect(CairnError.isInstance(error) && error.code).toBe('CONFLICT');
    expect(await readFile(lock, 'utf8')).toContain(String(process.pid));
  });

  it('serializes holders in one process and removes its lock after a throw', async () => {
    const lock = join(dir, 'a.lock');
    const order: string[] = [];
    const hold = (tag: string) =>
      withFileLock(lock, async () => {
        order.push(`${tag}+`);
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`${tag}-`);
      });
    await Promise.all([hold('x'), hold('y'), hold('z')]);
    expect(order.join(' ')).toMatch(/^(\w)\+ \1- (\w)\+ \2- (\w)\+ \3-$/);
    await expect(
      withFileLock(lock, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(withFileLock(lock, async () => 'free', { timeoutMs: 50 })).resolves.toBe('free');
  });

  it('refuses a lock path that is a symbolic link, dangling or not, and never touches its target', async () => {
    const outside = join(dir, 'outside.txt');
    await writeFile(outside, 'keep me');
    for (const target of [outside, join(dir, 'missing')]) {
      const lock = join(dir, 'link.lock');
      await rm(lock, { force: true });
      await symlink(target, lock);
      let ran = false;
      const error = await withFileLock(lock, async () => {
        ran = true;
      }).catch((e) => e);
      expect(CairnError.isInstance(error) && error.code).toBe('INVALID_PATH');
      expect(ran).toBe(false);
    }
    expect(await readFile(outside, 'utf8')).toBe('keep me');
  });

  it('refuses a lock folder that is a symbolic link', async () => {
    const real = await mkdtemp(join(tmpdir(), 'cairn-lock-outside-'));
    try {
      await symlink(real, join(dir, 'locks'));
      await symlink(join(real, 'missing'), join(dir, 'dangling'));
      for (const folder of ['locks', 'dangling']) {
        const error = await withFileLock(join(dir, folder, 'x.lock'), async () => {}).catch(
          (e) => e,
        );
        expect(CairnError.isInstance(error) && error.code).toBe('INVALID_PATH');
      }
      expect(await readdir(real)).toEqual([]);
    } finally {
      await rm(real, { recursive: true, force: true });
    }
  });
});

describe('withFileLock: who holds a lock', () => {
  const linux = existsSync('/proc/self/stat');
  const bootId = async () => (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  const lockOf = (pid: number, ...fields: string[]) =>
    `${pid}\n${new Date().toISOString()}\nnonce\n${fields.map((f) => `${f}\n`).join('')}`;
  const conflict = (lock: string, options = {}) =>
    withFileLock(lock, async () => 'ran', { timeoutMs: 100, ...options }).catch((e) =>
      CairnError.isInstance(e) ? e.code : e,
    );
  const age = async (path: string, ms: number) => {
    const then = new Date(Date.now() - ms);
    await utimes(path, then, then);
  };

  it('records its pid, start time, boot id, PID namespace and host', async () => {
    const lock = join(dir, 'mine.lock');
    const content = await withFileLock(lock, () => readFile(lock, 'utf8'));
    expect(content.split('\n')[0]).toBe(String(process.pid));
    expect(content).toMatch(/^host=.+$/m);
    if (linux) {
      expect(content).toContain(`\nstart=${processStartTime('self')}\n`);
      expect(content).toContain(`\nboot=${await bootId()}\n`);
      expect(content).toMatch(/^pidns=pid:\[\d+\]$/m);
    }
  });

  it.skipIf(!linux)(
    'takes over a lock naming PID 1, alive, with a start time that is not PID 1’s (a reused pid)',
    async () => {
      const lock = join(dir, 'pid1.lock');
      const start = String(Number(processStartTime(1)) + 1);
      await writeFile(lock, lockOf(1, `start=${start}`, `boot=${await bootId()}`));
      await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 2_000 })).resolves.toBe(
        'ran',
      );
    },
  );

  it('takes over a lock from another machine (another boot id, or another host without one), though its pid runs here', async () => {
    const lock = join(dir, 'committed.lock');
    await writeFile(lock, lockOf(process.pid, 'start=1', 'boot=0-other-boot', 'host=elsewhere'));
    await expect(conflict(lock)).resolves.toBe('ran');
    await writeFile(lock, lockOf(process.pid, 'host=a-laptop-that-committed-it'));
    await expect(conflict(lock)).resolves.toBe('ran');
  });

  it('waits for a lock it cannot check (an older lock, another PID namespace), and takes it over once older than maxAgeMs', async () => {
    const lock = join(dir, 'unknown.lock');
    for (const content of [
      `${process.pid}\n2026-01-01T00:00:00.000Z\n`,
      lockOf(process.pid, 'pidns=pid:[1]'),
    ]) {
      await writeFile(lock, content);
      await expect(conflict(lock)).resolves.toBe('CONFLICT');
      await age(lock, 61_000);
      await expect(conflict(lock)).resolves.toBe('ran');
    }
  });

  it('leaves the lock of a running holder alone and keeps it fresh while it works', async () => {
    const lock = join(dir, 'held.lock');
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = withFileLock(
      lock,
      async () => {
        holding();
        await released;
      },
      { maxAgeMs: 400 },
    );
    await held;
    await expect(conflict(lock, { maxAgeMs: 60_000 })).resolves.toBe('CONFLICT');
    // Made to look stopped: the holder's next refresh brings the mtime back.
    await age(lock, 10_000);
    const old = (await stat(lock)).mtimeMs;
    while ((await stat(lock)).mtimeMs <= old) await new Promise((r) => setTimeout(r, 20));
    release();
    await holder;
    await expect(conflict(lock)).resolves.toBe('ran');
  });
});
