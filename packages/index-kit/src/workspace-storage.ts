import {
  CairnError,
  MEMORY_LONG_TERM_FILENAME,
  type MemoryBackend,
  MemoryBackendError,
  type MemoryGetOptions,
  type MemoryGetResult,
  type MemoryReadResult,
  type MemoryWriteResult,
  memoryGetOptionsSchema,
  parseInput,
  readCairnFile,
  statCairnFile,
  validateWorkspacePath,
  workspaceFilePath,
  writeCairnFile,
} from '@cairn/core';

/** Most lines one `get` returns unless the options say otherwise. */
export const DEFAULT_GET_MAX_LINES = 200;

/** The storage half every backend shares: the markdown workspace in `.cairn/memory/`. */
export type WorkspaceStorage = Pick<Required<MemoryBackend>, 'read' | 'write' | 'get' | 'exists'>;

const LONG_TERM = workspaceFilePath(MEMORY_LONG_TERM_FILENAME);

/**
 * A workspace file's text through core's `.cairn/` resolver (no link, a
 * regular file, a capped read), or undefined when it does not exist. A
 * refused path stays INVALID_PATH; other failures are READ_FAILED.
 */
async function readText(type: string, rootDir: string, path: string): Promise<string | undefined> {
  try {
    return (await readCairnFile(rootDir, workspaceFilePath(path)))?.toString('utf8');
  } catch (error) {
    if (CairnError.isInstance(error) && error.code === 'INVALID_PATH') throw error;
    throw new MemoryBackendError('READ_FAILED', type, `Cannot read .cairn/memory/${path}`, {
      cause: error,
      details: { path },
    });
  }
}

async function readLongTerm(type: string, rootDir: string): Promise<MemoryReadResult> {
  const content = await readText(type, rootDir, MEMORY_LONG_TERM_FILENAME);
  return content === undefined
    ? { content: '', exists: false, path: MEMORY_LONG_TERM_FILENAME }
    : { content, exists: true, path: MEMORY_LONG_TERM_FILENAME };
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
    await writeCairnFile(rootDir, LONG_TERM, content);
  } catch (error) {
    if (CairnError.isInstance(error) && error.code === 'INVALID_PATH') throw error;
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
  const text = await readText(type, rootDir, validateWorkspacePath(options.path));
  if (text === undefined) {
    throw new MemoryBackendError('NOT_FOUND', type, `Cannot read .cairn/memory/${options.path}`, {
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
    // A link or a FIFO is INVALID_PATH here too: exists never says yes to what read refuses.
    exists: async (rootDir) => statCairnFile(rootDir, LONG_TERM) !== undefined,
  };
}
