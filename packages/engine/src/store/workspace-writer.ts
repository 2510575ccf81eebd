import {
  type MemoryBackend,
  MemoryBackendError,
  type MemoryWriteResult,
  writeMemoryFileExact,
} from '@cairn/core';
import { checkMemoryContent, withMemoryFileLock } from './memory-lock';

/**
 * The one way Cairn writes a file of `.cairn/memory/`: units (add, replace,
 * remove), the head region of MEMORY.md, thread heads, and `write`. It
 * honours the backend's `writable` capability (seed 000 §3.3): with a
 * backend that declares it false (`readonly`) every write is refused with
 * READ_ONLY before anything is touched. State under `.cairn/state/`
 * (lineage, head records) is not memory and is not written through here.
 */
export interface WorkspaceWriter {
  readonly rootDir: string;
  /** The backend's `writable` capability. */
  readonly writable: boolean;
  /** Throws READ_ONLY naming `action` (e.g. "add a memory") when the backend is not writable. */
  assertWritable(action: string): void;
  /** Writes one workspace file exactly (bytes outside Cairn's regions are the caller's to keep). */
  writeFile(path: string, content: string): Promise<void>;
  /**
   * Replaces MEMORY.md through the backend, under the lock head renders
   * take. Refuses empty (unless `allowEmpty`) and binary content with INVALID_INPUT.
   */
  writeLongTerm(content: string, options?: { allowEmpty?: boolean }): Promise<MemoryWriteResult>;
  /**
   * Calls `listener` with the workspace-relative path of every write made
   * through this writer (after it, failed or not), so caches of this
   * process follow their own writes without a stat of every file.
   */
  onWrite(listener: (path: string) => void): void;
}

export function createWorkspaceWriter(rootDir: string, backend: MemoryBackend): WorkspaceWriter {
  const writable = backend.capabilities.writable;
  const assertWritable = (action: string): void => {
    if (writable) return;
    throw new MemoryBackendError(
      'READ_ONLY',
      backend.type,
      `The "${backend.type}" memory backend is read-only: refused to ${action}; nothing was written`,
      { details: { action } },
    );
  };
  const listeners: ((path: string) => void)[] = [];
  const notify = (path: string) => {
    for (const listener of listeners) listener(path);
  };
  return {
    rootDir,
    writable,
    assertWritable,
    async writeFile(path, content) {
      assertWritable(`write ${path}`);
      try {
        await writeMemoryFileExact(rootDir, path, content);
      } finally {
        notify(path);
      }
    },
    async writeLongTerm(content, options = {}) {
      assertWritable('replace MEMORY.md');
      const text = checkMemoryContent(content, options.allowEmpty);
      try {
        return await withMemoryFileLock(rootDir, () => backend.write(rootDir, text));
      } finally {
        notify('MEMORY.md');
      }
    },
    onWrite(listener) {
      listeners.push(listener);
    },
  };
}
