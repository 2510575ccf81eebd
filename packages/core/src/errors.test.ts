import { describe, expect, it } from 'vitest';
import {
  CAIRN_ERROR_CODES,
  CairnError,
  formatError,
  formatErrorLine,
  MEMORY_BACKEND_ERROR_CODES,
  MemoryBackendError,
} from './errors';

describe('errors', () => {
  it('MemoryBackendError carries the code, the backend and a hint', () => {
    for (const code of MEMORY_BACKEND_ERROR_CODES) {
      const error = new MemoryBackendError(code, 'file', 'Something failed');
      expect(error.code).toBe(code);
      expect(error.backend).toBe('file');
      expect(error.hint).toBeTruthy();
      expect(error.message).toContain(error.hint!);
      expect(MemoryBackendError.isInstance(error)).toBe(true);
      expect(CairnError.isInstance(error)).toBe(true);
    }
  });

  it('isInstance recognises errors from another copy of the package', () => {
    // A second install has its own classes but the same global symbols.
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('cairn.error')]: true,
      [Symbol.for('cairn.error.memory-backend')]: true,
      code: 'READ_ONLY',
    });
    expect(CairnError.isInstance(foreign)).toBe(true);
    expect(MemoryBackendError.isInstance(foreign)).toBe(true);
    expect(CairnError.isInstance(new Error('plain'))).toBe(false);
    expect(MemoryBackendError.isInstance(new CairnError('INVALID_INPUT', 'x'))).toBe(false);
  });

  it('keeps the cause and serialises to JSON', () => {
    const cause = new Error('EACCES');
    const error = new CairnError('WRITE_FAILED', 'Cannot write', {
      cause,
      details: { path: 'MEMORY.md' },
    });
    expect(error.cause).toBe(cause);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'WRITE_FAILED',
      message: 'Cannot write',
      details: { path: 'MEMORY.md' },
    });
    expect(formatError(error)).toBe('WRITE_FAILED: Cannot write');
    expect(formatError(new Error('boom'))).toBe('INTERNAL: boom');
    expect(formatErrorLine(error)).toBe(
      'WRITE_FAILED: Cannot write — check free disk space and write permission on .cairn/memory/',
    );
    expect(formatErrorLine(new Error('boom'))).toBe(
      'INTERNAL: boom — this is a bug in Cairn: please report it with the command that failed',
    );
  });

  it('gives every code a default hint, and keeps an own hint once', () => {
    for (const code of CAIRN_ERROR_CODES) {
      expect(formatErrorLine(new CairnError(code, 'what went wrong'))).toMatch(
        new RegExp(`^${code}: what went wrong — .+$`),
      );
    }
    const own = new CairnError('NOT_FOUND', 'No unit', { hint: 'list them' });
    expect(formatErrorLine(own)).toBe('NOT_FOUND: No unit — list them');
  });
});
