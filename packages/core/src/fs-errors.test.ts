import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CairnError } from './errors';
import { fsError, isFileSystemRefusal, typedFileSystemError } from './fs-errors';

const errno = (code: string, syscall: string, path = '/x/y') =>
  Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });

describe('fsError', () => {
  it('turns EACCES, EPERM, EROFS and ENOSPC into READ_FAILED or WRITE_FAILED', () => {
    for (const code of ['EACCES', 'EPERM', 'EROFS', 'ENOSPC']) {
      const write = fsError(errno(code, 'open'), { op: 'write' });
      expect(CairnError.isInstance(write) && write.code).toBe('WRITE_FAILED');
      expect(CairnError.isInstance(write) && write.details).toMatchObject({
        path: '/x/y',
        errno: code,
      });
      const read = fsError(errno(code, 'open'), { op: 'read', path: '/p' });
      expect(CairnError.isInstance(read) && read.code).toBe('READ_FAILED');
    }
  });

  it('leaves CairnErrors and unrelated values alone', () => {
    const typed = new CairnError('NOT_FOUND', 'gone');
    expect(fsError(typed, { op: 'read' })).toBe(typed);
    const bug = new TypeError('undefined is not a function');
    expect(fsError(bug, { op: 'write' })).toBe(bug);
    expect(isFileSystemRefusal(bug)).toBe(false);
  });

  it('types a real refusal at a boundary by its syscall', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-fserr-'));
    try {
      // Reading a folder as a file is refused by the system with EISDIR.
      const { readFile } = await import('node:fs/promises');
      const error = await readFile(dir).catch((e: unknown) => e);
      const typed = typedFileSystemError(error);
      expect(CairnError.isInstance(typed) && typed.code).toBe('READ_FAILED');
      const scandir = typedFileSystemError(errno('EACCES', 'scandir'));
      expect(CairnError.isInstance(scandir) && scandir.code).toBe('READ_FAILED');
      const mkdir = typedFileSystemError(errno('EACCES', 'mkdir'));
      expect(CairnError.isInstance(mkdir) && mkdir.code).toBe('WRITE_FAILED');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
