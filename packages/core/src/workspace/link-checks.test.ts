import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { appendStateFile } from './cairn-file-writes';
import {
  assertNoCairnLinks,
  assertSafeDatabasePath,
  makeDirectory,
  makeDirectorySync,
  prepareStateDirectory,
} from './link-checks';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-state-'));
  outside = await mkdtemp(join(tmpdir(), 'cairn-outside-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return CairnError.isInstance(error) ? error.code : 'untyped';
  }
  return undefined;
}

describe('state paths', () => {
  it('appends to a state file, creating its folders', () => {
    appendStateFile(root, '.cairn/state/log.jsonl', 'one\n');
    appendStateFile(root, '.cairn/state/log.jsonl', 'two\n');
    expect(readFileSync(join(root, '.cairn/state/log.jsonl'), 'utf8')).toBe('one\ntwo\n');
  });

  it('never appends through a link to the file or to a folder on the way', async () => {
    const target = join(outside, 'victim.txt');
    await writeFile(target, 'untouched\n');
    await mkdir(join(root, '.cairn/state'), { recursive: true });
    await symlink(target, join(root, '.cairn/state/log.jsonl'));
    expect(codeOf(() => appendStateFile(root, '.cairn/state/log.jsonl', 'x\n'))).toBe(
      'INVALID_PATH',
    );
    await rm(join(root, '.cairn/state'), { recursive: true });
    await symlink(outside, join(root, '.cairn/state'));
    expect(codeOf(() => appendStateFile(root, '.cairn/state/victim.txt', 'x\n'))).toBe(
      'INVALID_PATH',
    );
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
  });

  it('refuses a link at a database or at its -wal and -shm siblings', async () => {
    const state = join(root, '.cairn/state');
    await mkdir(state, { recursive: true });
    const db = join(state, 'lineage.db');
    expect(codeOf(() => assertSafeDatabasePath(db))).toBeUndefined();
    for (const suffix of ['', '-wal', '-shm']) {
      symlinkSync(join(outside, `x${suffix}`), `${db}${suffix}`);
      expect(codeOf(() => assertSafeDatabasePath(db))).toBe('INVALID_PATH');
      await rm(`${db}${suffix}`);
    }
  });

  it('refuses a file where a folder is expected, and a linked .cairn', async () => {
    await mkdir(join(root, '.cairn'));
    writeFileSync(join(root, '.cairn/index'), 'not a folder');
    expect(codeOf(() => prepareStateDirectory(join(root, '.cairn/index/search.sqlite')))).toBe(
      'INVALID_PATH',
    );
    await rm(join(root, '.cairn'), { recursive: true });
    await symlink(outside, join(root, '.cairn'));
    expect(codeOf(() => assertNoCairnLinks(join(root, '.cairn/state/heads.db')))).toBe(
      'INVALID_PATH',
    );
  });

  it('checks the folders on the way to a database once, and its files at every open', async () => {
    const db = join(root, '.cairn/state/heads.db');
    prepareStateDirectory(db);
    expect(codeOf(() => assertSafeDatabasePath(db))).toBeUndefined();
    // The folders were found real; a link at a file is still refused on the next open.
    symlinkSync(join(outside, 'x-wal'), `${db}-wal`);
    expect(codeOf(() => assertSafeDatabasePath(db))).toBe('INVALID_PATH');
    // Another project in the same process: its linked folder was never found real.
    const other = await mkdtemp(join(tmpdir(), 'cairn-state-other-'));
    try {
      await mkdir(join(other, '.cairn'));
      await symlink(outside, join(other, '.cairn/state'));
      const linked = join(other, '.cairn/state/heads.db');
      expect(codeOf(() => prepareStateDirectory(linked))).toBe('INVALID_PATH');
      expect(codeOf(() => assertSafeDatabasePath(linked))).toBe('INVALID_PATH');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('creates nested folders, and fails typed (not forever) where none can be made', async () => {
    makeDirectorySync(join(root, 'a/b/c'));
    await makeDirectory(join(root, 'd/e'));
    expect(lstatSync(join(root, 'a/b/c')).isDirectory()).toBe(true);
    expect(lstatSync(join(root, 'd/e')).isDirectory()).toBe(true);
    // /proc/self exists but takes no children: recursive mkdir spins there.
    if (process.platform === 'linux') {
      expect(codeOf(() => makeDirectorySync('/proc/self/.cairn/state'))).toBe('WRITE_FAILED');
      await expect(makeDirectory('/proc/self/.cairn/memory')).rejects.toMatchObject({
        code: 'WRITE_FAILED',
      });
    }
  });
});
