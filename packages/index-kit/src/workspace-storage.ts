import { promises as fsp } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import {
  CairnError,
  MEMORY_LONG_TERM_FILENAME,
  type MemoryBackend,
  MemoryBackendError,
  type MemoryGetOptions,
  type MemoryGetResult,
  type MemoryReadResult,
  type MemoryWriteResult,
  makeDirectory,
  memoryGetOptionsSchema,
  memoryLongTermPath,
  memoryWorkspacePath,
  parseInput,
  resolveWorkspaceFile,
  writeFileAtomic,
} from '@cairn/core';

/** Most lines one `get` returns unless the options say otherwise. */
export const DEFAULT_GET_MAX_LINES = 200;

/** The storage half every backend shares: the markdown workspace in `.cairn/memory/`. */
export type WorkspaceStorage = Pick<Required<MemoryBackend>, 'read' | 'write' | 'get' | 'exists'>;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

async function readLongTerm(type: string, rootDir: string): Promise<MemoryReadResult> {
  try {
    const content = await fsp.readFile(memoryLongTermPath(rootDir), 'utf8');
    return { content, exists: true, path: MEMORY_LONG_TERM_FILENAME };
  } catch (error) {
    if (isMissing(error)) return { content: '', exists: false, path: MEMORY_LONG_TERM_FILENAME };
    throw new MemoryBackendError('READ_FAILED', type, 'Cannot read .cairn/memory/MEMORY.md', {
      cause: error,
    });
  }
}

async function writeLongTerm(
  type: string,
  rootDir: string,
  content: unknown,
): Promise<MemoryWriteResult> {
  if (typeof content !== 'string') {
    throw new CairnError('INVALID_INPUT', 'Memory content must be a string', {
      hint: 'pass the new MEMORY.md text as a string; nothing was written',
    });
  }
  try {
    await makeDirectory(memoryWorkspacePath(rootDir));
    await writeFileAtomic(memoryLongTermPath(rootDir), content);
  } catch (error) {
    throw new MemoryBackendError('WRITE_FAILED', type, 'Cannot write .cairn/memory/MEMORY.md', {
      cause: error,
    });
  }
  return { path: MEMORY_LONG_TERM_FILENAME, bytes: Buffer.byteLength(content) };
}

async function getLines(
  type: string,
  rootDir: string,
  input: MemoryGetOptions,
  maxLines: number,
): Promise<MemoryGetResult> {
  const options = parseInput(memoryGetOptionsSchema, input, 'get options');
  const path = await resolveWorkspaceFile(rootDir, options.path);
  let text: string;
  try {
    text = await fsp.readFile(path, 'utf8');
  } catch (error) {
    const code = isMissing(error) ? 'NOT_FOUND' : 'READ_FAILED';
    throw new MemoryBackendError(code, type, `Cannot read .cairn/memory/${options.path}`, {
      cause: error,
      details: { path: options.path },
    });
  }
  const lines = text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
  const count = Math.min(options.lineCount ?? maxLines, maxLines);
  const slice = lines.slice(options.startLine - 1, options.startLine - 1 + count);
  const endLine = options.startLine - 1 + slice.length;
  return {
    path: options.path,
    content: slice.join('\n'),
    startLine: options.startLine,
    endLine,
    totalLines: lines.length,
    truncated: endLine < lines.length,
  };
}

/**
 * Read, write, get and exists over `.cairn/memory/`: the long-term file
 * written through a temp file and a rename, so no reader ever sees a torn
 * file. Every backend built on an index stores through this; `type` names
 * the backend in typed errors.
 */
export function workspaceStorage(
  type: string,
  maxLines: number = DEFAULT_GET_MAX_LINES,
): WorkspaceStorage {
  return {
    read: (rootDir) => readLongTerm(type, rootDir),
    write: (rootDir, content) => writeLongTerm(type, rootDir, content),
    get: (rootDir, options) => getLines(type, rootDir, options, maxLines),
    exists: (rootDir) =>
      fsp.access(memoryLongTermPath(rootDir)).then(
        () => true,
        () => false,
      ),
  };
}
