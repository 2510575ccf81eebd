import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import {
  appendStateFile,
  createCairnFile,
  makeCairnFolder,
  writeCairnFile,
} from './cairn-file-writes';
import { listCairnFolder, readCairnFile, readCairnFileSync, statCairnFile } from './cairn-files';
import { isUnsafePathError } from './link-checks';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-files-'));
  outside = await mkdtemp(join(tmpdir(), 'cairn-files-outside-'));
  await mkdir(join(outside, 'memory'), { recursive: true });
  await writeFile(join(outside, 'memory', 'MEMORY.md'), 'VICTIM\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** The error code and reason of a call, sync or async; undefined when it succeeded. */
async function refusal(
  call: () => unknown,
): Promise<{ code: string; reason: unknown } | undefined> {
  try {
    await call();
  } catch (error) {
    if (!CairnError.isInstance(error)) throw error;
    return { code: error.code, reason: error.details.reason };
  }
  return undefined;
}

const symlinkRefusal = { code: 'INVALID_PATH', reason: 'symlink' };
const FILE = '.cairn/memory/MEMORY.md';

/** Every operation on `.cairn/memory/MEMORY.md` and its folder. */
const operations: Array<[string, () => unknown]> = [
  ['readCairnFile', () => readCairnFile(root, FILE)],
  ['readCairnFileSync', () => readCairnFileSync(root, FILE)],
  ['statCairnFile', () => statCairnFile(root, FILE)],
  ['writeCairnFile', () => writeCairnFile(root, FILE, 'x')],
  ['createCairnFile', () => createCairnFile(root, FILE, 'x')],
  ['appendStateFile', () => appendStateFile(root, FILE, 'x')],
  ['listCairnFolder', () => listCairnFolder(root, '.cairn/memory')],
  ['makeCairnFolder', () => makeCairnFolder(root, '.cairn/memory/threads')],
];

/** Every file under `dir` with its bytes: proves a call wrote nothing there. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return `${path}:${readFileSync(path, 'utf8')}`;
    })
    .sort();
}

describe('the .cairn/ resolver', () => {
  it('reads, writes, creates, appends and lists real files', async () => {
    expect(await readCairnFile(root, FILE)).toBeUndefined();
    expect(readCairnFileSync(root, FILE)).toBeUndefined();
    await writeCairnFile(root, FILE, 'one\n');
    expect((await readCairnFile(root, FILE))?.toString()).toBe('one\n');
    expect(readCairnFileSync(root, FILE)?.toString()).toBe('one\n');
    expect(await createCairnFile(root, FILE, 'two\n')).toBe(false);
    expect(await createCairnFile(root, '.cairn/memory/DREAMS.md', 'd\n')).toBe(true);
    appendStateFile(root, '.cairn/state/log.jsonl', 'a\n');
    appendStateFile(root, '.cairn/state/log.jsonl', 'b\n');
    expect(readCairnFileSync(root, '.cairn/state/log.jsonl')?.toString()).toBe('a\nb\n');
    expect(
      listCairnFolder(root, '.cairn/memory')
        .map((e) => e.name)
        .sort(),
    ).toEqual(['DREAMS.md', 'MEMORY.md']);
    expect(listCairnFolder(root, '.cairn/index')).toEqual([]);
    expect(statCairnFile(root, FILE)?.size).toBe(4);
  });

  it.each([
    ['.cairn itself', '.cairn', () => outside],
    ['the memory folder', '.cairn/memory', () => join(outside, 'memory')],
    ['the file', FILE, () => join(outside, 'memory', 'MEMORY.md')],
    ['a dangling link at the file', FILE, () => join(outside, 'gone.md')],
    ['a link to a device', FILE, () => '/dev/zero'],
    ['a link to /proc', FILE, () => '/proc/self/environ'],
  ])('refuses %s as a link, for every operation, and writes nothing', async (_kind, at, target) => {
    await mkdir(join(root, at, '..'), { recursive: true });
    await symlink(target(), join(root, at));
    const before = snapshot(outside);
    for (const [name, call] of operations) {
      // The folder operations see a file link only when they reach the file.
      if (at === FILE && (name === 'listCairnFolder' || name === 'makeCairnFolder')) continue;
      expect([name, await refusal(call)]).toEqual([name, symlinkRefusal]);
    }
    expect(snapshot(outside)).toEqual(before);
    expect(existsSync(join(outside, 'memory', 'threads'))).toBe(false);
  });

  it('refuses a FIFO without blocking, and never a writer waiting on it', async () => {
    if (process.platform === 'win32') return;
    await mkdir(join(root, '.cairn/memory'), { recursive: true });
    execFileSync('mkfifo', [join(root, FILE)]);
    for (const [name, call] of operations.slice(0, 6)) {
      const result = await refusal(call);
      expect([name, result]).toEqual([name, { code: 'INVALID_PATH', reason: 'not_file' }]);
    }
  });

  it('refuses a file over the read cap with READ_FAILED, and a file where a folder belongs', async () => {
    await writeCairnFile(root, FILE, 'x'.repeat(100));
    expect(await refusal(() => readCairnFile(root, FILE, { maxBytes: 99 }))).toEqual({
      code: 'READ_FAILED',
      reason: 'too_large',
    });
    expect(await refusal(() => readCairnFileSync(root, FILE, { maxBytes: 99 }))).toEqual({
      code: 'READ_FAILED',
      reason: 'too_large',
    });
    expect((await readCairnFile(root, FILE, { maxBytes: 100 }))?.length).toBe(100);
    await writeFile(join(root, '.cairn/state'), 'a file');
    const error = await refusal(() => appendStateFile(root, '.cairn/state/log.jsonl', 'x'));
    expect(error).toEqual({ code: 'INVALID_PATH', reason: 'not_directory' });
  });

  it('reads a large file whole, in one pass or growing', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'a');
    await writeCairnFile(root, FILE, big);
    expect((await readCairnFile(root, FILE))?.equals(big)).toBe(true);
    expect(readCairnFileSync(root, FILE)?.equals(big)).toBe(true);
  });

  it('refuses paths that are not under .cairn/', async () => {
    for (const path of ['/etc/passwd', 'notes.md', '.cairn/../x', '.cairn/./memory/MEMORY.md']) {
      expect(await refusal(() => readCairnFile(root, path))).toMatchObject({
        code: 'INVALID_PATH',
      });
    }
  });

  it('names link refusals as such, and nothing else', async () => {
    symlinkSync(outside, join(root, '.cairn'));
    const error = await readCairnFile(root, FILE).catch((e: unknown) => e);
    expect(isUnsafePathError(error)).toBe(true);
    expect((error as CairnError).message).toContain('Cairn never follows links under .cairn/');
    expect(
      isUnsafePathError(new CairnError('INVALID_PATH', 'x', { details: { reason: 'empty' } })),
    ).toBe(false);
  });
});
