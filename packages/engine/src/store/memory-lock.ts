import { join } from 'node:path';
import {
  CairnError,
  cairnStatePath,
  containsBinary,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  withFileLock,
} from '@cairn/core';

/**
 * The lock every writer of MEMORY.md takes: `cairn write` (a whole-file
 * replace) and the head render (which re-reads the file inside the lock
 * and merges the user's text around the managed region). Without it a
 * render that read the file before a write would put the old text back.
 */
export function withMemoryFileLock<T>(rootDir: string, fn: () => Promise<T>): Promise<T> {
  return withFileLock(join(cairnStatePath(rootDir), 'locks', 'memory-md.lock'), fn);
}

const count = (text: string, marker: string) => text.split(marker).length - 1;

/** No head region, or exactly one whose start comes before its end. */
function headMarkersValid(content: string): boolean {
  const starts = count(content, HEAD_START_MARKER);
  const ends = count(content, HEAD_END_MARKER);
  if (starts === 0 && ends === 0) return true;
  return (
    starts === 1 &&
    ends === 1 &&
    content.indexOf(HEAD_START_MARKER) < content.indexOf(HEAD_END_MARKER)
  );
}

/**
 * Refuses content that would replace MEMORY.md with nothing (unless
 * `allowEmpty`) or with binary: NUL bytes, U+FFFD (what invalid UTF-8
 * decodes to) and lone surrogates; or a head region Cairn could not find
 * again (a marker twice, or the end before the start).
 */
export function checkMemoryContent(content: unknown, allowEmpty = false): string {
  if (typeof content !== 'string') {
    throw new CairnError('INVALID_INPUT', 'Memory content must be a string', {
      hint: 'pass the new MEMORY.md text as a string; nothing was written',
      details: { reason: 'not_a_string' },
    });
  }
  if (!allowEmpty && content.trim() === '') {
    throw new CairnError('INVALID_INPUT', 'Refusing to replace MEMORY.md with empty content', {
      hint: 'pipe the new MEMORY.md on stdin or pass --file; pass --allow-empty to really empty it. Nothing was written',
      details: { reason: 'empty' },
    });
  }
  if (containsBinary(content)) {
    throw new CairnError('INVALID_INPUT', 'Refusing binary content for MEMORY.md', {
      hint: 'the input holds NUL bytes or invalid UTF-8 (U+FFFD, lone surrogates); give UTF-8 text. Nothing was written',
      details: { reason: 'binary' },
    });
  }
  if (!headMarkersValid(content)) {
    throw new CairnError('INVALID_INPUT', 'Refusing MEMORY.md with a broken head region', {
      hint: `keep at most one ${HEAD_START_MARKER} … ${HEAD_END_MARKER} pair, start first. Nothing was written`,
      details: { reason: 'markers' },
    });
  }
  return content;
}
