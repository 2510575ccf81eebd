import { createHash } from 'node:crypto';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import {
  dailyMemoryFileName,
  formatDateInTimeZone,
  isCalendarDate,
  memoryWorkspacePath,
  validateWorkspacePath,
} from './paths';
import {
  ensureMemoryWorkspace,
  getDefaultMemoryScaffold,
  listMemoryFiles,
  listSharedFixesFiles,
  readMemoryFile,
  writeMemoryFile,
} from './workspace-files';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-ws-'));
  outside = await mkdtemp(join(tmpdir(), 'cairn-outside-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** Fingerprint of every path under dir, to prove nothing changed. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(path: string, rel: string) {
    const info = await lstat(path);
    if (info.isSymbolicLink()) out.push(`${rel} -> ${await readlink(path)}`);
    else if (info.isDirectory()) {
      out.push(`${rel}/`);
      for (const name of (await readdir(path)).sort())
        await walk(join(path, name), `${rel}/${name}`);
    } else
      out.push(
        `${rel} ${createHash('sha1')
          .update(await readFile(path))
          .digest('hex')}`,
      );
  }
  await walk(dir, '');
  return out;
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; reason: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!CairnError.isInstance(error)) throw new Error(`expected a CairnError, got ${String(error)}`);
  return { code: error.code, reason: error.details.reason };
}

describe('workspace path validation', () => {
  it.each([
    ['MEMORY.md'],
    ['DREAMS.md'],
    ['2026-02-28.md'],
    ['memory-insights.md'],
    ['memory-audit.md'],
    ['threads/main.md'],
    ['threads/agent-1.feature_x.md'],
    ['fixes/3f9c2a0b1d4e.md'],
  ])('accepts %s', (path) => {
    expect(validateWorkspacePath(path)).toBe(path);
  });

  it.each([
    ['', 'empty'],
    ['MEMORY.md\0', 'nul_byte'],
    ['/etc/passwd', 'absolute'],
    ['C:\\memory\\MEMORY.md', 'absolute'],
    ['../MEMORY.md', 'traversal'],
    ['threads/../MEMORY.md', 'traversal'],
    ['./MEMORY.md', 'traversal'],
    ['threads//x.md', 'traversal'],
    [`threads/${'a'.repeat(200)}.md`, 'too_long'],
    ['notes.md', 'not_allowed'],
    ['2026-02-30.md', 'not_allowed'],
    ['memory.md', 'not_allowed'],
    ['threads/Main.md', 'not_allowed'],
    ['threads/a/b.md', 'not_allowed'],
    ['threads/.hidden.md', 'not_allowed'],
    ['fixes/Alice.md', 'not_allowed'],
    ['fixes/a/b.md', 'not_allowed'],
    ['fixes/notes.txt', 'not_allowed'],
    ['fixes', 'not_allowed'],
  ])('rejects %j as %s, and writing it changes nothing', async (path, reason) => {
    await ensureMemoryWorkspace(root);
    const before = await tree(root);
    expect(await codeOf(writeMemoryFile(root, path, 'x'))).toEqual({
      code: 'INVALID_PATH',
      reason,
    });
    expect(await codeOf(readMemoryFile(root, path))).toEqual({ code: 'INVALID_PATH', reason });
    expect(await tree(root)).toEqual(before);
  });

  it('rejects every link, wherever it leads, for reads, writes and listings, and changes nothing', async () => {
    await ensureMemoryWorkspace(root);
    const workspace = memoryWorkspacePath(root);
    await writeFile(join(outside, 'target.md'), 'outside\n');
    await symlink(join(outside, 'target.md'), join(workspace, 'memory-audit.md'));
    await symlink(join(outside, 'missing.md'), join(workspace, 'memory-insights.md'));
    // A link that stays inside the workspace is refused too: links are never followed.
    await symlink('MEMORY.md', join(workspace, '2026-01-01.md'));
    await symlink(outside, join(workspace, 'threads'));
    await symlink(outside, join(workspace, 'fixes'));
    const before = [await tree(root), await tree(outside)];
    for (const path of [
      'memory-audit.md',
      'memory-insights.md',
      '2026-01-01.md',
      'threads/main.md',
      'fixes/a1.md',
    ]) {
      expect(await codeOf(writeMemoryFile(root, path, 'x'))).toEqual({
        code: 'INVALID_PATH',
        reason: 'symlink',
      });
    }
    expect((await codeOf(readMemoryFile(root, 'memory-audit.md'))).reason).toBe('symlink');
    expect((await codeOf(readMemoryFile(root, '2026-01-01.md'))).reason).toBe('symlink');
    expect((await codeOf(listMemoryFiles(root))).reason).toBe('symlink');
    expect((await codeOf(readMemoryFile(root, 'fixes/a1.md'))).reason).toBe('symlink');
    // A fixes folder that is a link is refused by its listing too.
    expect((await codeOf(listSharedFixesFiles(root))).reason).toBe('symlink');
    expect([await tree(root), await tree(outside)]).toEqual(before);
  });

  it('rejects non-string content with INVALID_INPUT and changes nothing', async () => {
    await ensureMemoryWorkspace(root);
    const before = await tree(root);
    expect((await codeOf(writeMemoryFile(root, 'DREAMS.md', 42))).code).toBe('INVALID_INPUT');
    expect(await tree(root)).toEqual(before);
  });
});

describe('workspace files', () => {
  it('bootstraps MEMORY.md with an empty managed head and DREAMS.md, once', async () => {
    expect(await ensureMemoryWorkspace(root)).toEqual(['MEMORY.md', 'DREAMS.md']);
    expect(await readMemoryFile(root, 'MEMORY.md')).toBe(getDefaultMemoryScaffold());
    expect(getDefaultMemoryScaffold()).toMatch(
      /<!-- cairn:head:start -->\n<!-- cairn:head:end -->/,
    );
    await writeMemoryFile(root, 'MEMORY.md', 'mine\n');
    expect(await ensureMemoryWorkspace(root)).toEqual([]);
    expect(await readMemoryFile(root, 'MEMORY.md')).toBe('mine\n');
  });

  it('lists only allowed files and skips temp files and links', async () => {
    await ensureMemoryWorkspace(root);
    const workspace = memoryWorkspacePath(root);
    await writeMemoryFile(root, '2026-01-02.md', 'day\n');
    await writeMemoryFile(root, 'threads/main.md', 'thread\n');
    await writeFile(join(workspace, 'random.txt'), 'no');
    await writeFile(join(workspace, '.cairn-tmp-MEMORY.md.1.abc'), 'partial');
    await mkdir(join(workspace, 'subdir'));
    const names = (await listMemoryFiles(root)).map((f) => f.path);
    expect(names).toEqual(['2026-01-02.md', 'DREAMS.md', 'MEMORY.md', 'threads/main.md']);
  });

  it('reads a missing file as NOT_FOUND', async () => {
    expect((await codeOf(readMemoryFile(root, '2026-01-01.md'))).code).toBe('NOT_FOUND');
  });
});

describe('dates', () => {
  it('names the daily file by the date in the configured time zone', () => {
    const instant = new Date('2026-03-01T23:30:00Z');
    expect(dailyMemoryFileName(instant, 'UTC')).toBe('2026-03-01.md');
    expect(dailyMemoryFileName(instant, 'Asia/Tokyo')).toBe('2026-03-02.md');
    expect(formatDateInTimeZone(instant, 'America/Los_Angeles')).toBe('2026-03-01');
    const local = new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    expect(formatDateInTimeZone(instant, 'local')).toBe(local.format(instant));
  });

  it('knows real calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2023-2-1')).toBe(false);
  });
});
