import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

/**
 * A full disk, through the built `cairn`: a write that fails names the
 * file it could not write and leaves no temp file behind.
 */

/** A 64 KiB tmpfs, where the machine lets a root test mount one; undefined (a visible skip) otherwise. */
function mountSmallDisk(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = join(tmpdir(), `cairn-full-disk-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
  if (mount.status === 0) return dir;
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}

const disk = mountSmallDisk();

describe.skipIf(!disk)('a full disk (needs root and a tmpfs mount: skipped where neither)', () => {
  afterEach(() => {
    rmSync(join(disk!, 'fill'), { force: true });
    rmSync(join(disk!, 'p'), { recursive: true, force: true });
  });
  afterAll(() => {
    spawnSync('umount', [disk!]);
    rmSync(disk!, { recursive: true, force: true });
  });

  const small = cliRunner(() => join(disk!, 'p'), { CAIRN_TIMEZONE: 'UTC' });
  /** Fills the disk, leaving `pages` 4 KiB pages free. */
  function fill(pages: number) {
    const free = spawnSync('df', ['--output=avail', '-B4096', disk!], { encoding: 'utf8' });
    const available = Number(free.stdout.trim().split('\n').pop());
    writeFileSync(join(disk!, 'fill'), Buffer.alloc(Math.max(0, available - pages) * 4096));
  }
  /** Files Cairn writes first and renames or links into place. */
  const temps = () =>
    readdirSync(join(disk!, 'p'), { recursive: true, encoding: 'utf8' }).filter((name) =>
      /\.tmp$|\.cairn-tmp-/.test(name),
    );

  it.each([
    [
      'no page left: the lock',
      0,
      /Cannot write \S+\/\.cairn\/state\/locks\/units\.lock: no space left on the device \(ENOSPC\)/,
    ],
    [
      'one page left: the daily file',
      1,
      /Cannot write \.cairn\/memory\/\d{4}-\d\d-\d\d\.md: no space left on the device \(ENOSPC\)/,
    ],
  ])('%s: WRITE_FAILED names the path, no temp file is left', (_, pages, message) => {
    mkdirSync(join(disk!, 'p'));
    expect(small.run(['init']).code).toBe(0);
    fill(pages);
    const add = small.run(['add', 'We use pnpm for everything in this repo.']);
    expect(add.code).toBe(1);
    expect(add.stderr).toMatch(/^cairn: WRITE_FAILED: /);
    expect(add.stderr).toMatch(message);
    expect(add.stderr).not.toContain('unknown path');
    expect(temps()).toEqual([]);
  });
});
