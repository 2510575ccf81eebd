import {
  MEMORY_LONG_TERM_FILENAME,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  MemoryBackendError,
  type MemoryGetResult,
} from '@cairn/core';

export const readonlyCapabilities = {
  readable: true,
  writable: false,
  supportsAtomicWrite: false,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

export interface ReadonlyBackendOptions {
  /** The backend whose content is exposed read-only. Without one, everything reads as empty. */
  inner?: MemoryBackend;
}

const TYPE = 'readonly';

/**
 * Seed 000 §3.3: reads never throw (a failure reads as empty), `write`
 * throws READ_ONLY, `search` returns nothing. `get` and `exists` delegate
 * when the wrapped backend has them.
 */
export function createReadonlyBackend(options: ReadonlyBackendOptions = {}): MemoryBackend {
  const inner = options.inner;
  const backend: MemoryBackend = {
    type: TYPE,
    name: inner ? `Read-only view of ${inner.name}` : 'Read-only (empty)',
    capabilities: readonlyCapabilities,
    async read(rootDir) {
      if (!inner) return { content: '', exists: false, path: MEMORY_LONG_TERM_FILENAME };
      try {
        return await inner.read(rootDir);
      } catch {
        return { content: '', exists: false, path: MEMORY_LONG_TERM_FILENAME };
      }
    },
    async write() {
      throw new MemoryBackendError(
        'READ_ONLY',
        TYPE,
        'This memory backend is read-only; nothing was written',
      );
    },
    async search() {
      return [];
    },
    async exists(rootDir) {
      if (!inner?.exists) return false;
      return inner.exists(rootDir).catch(() => false);
    },
  };
  const innerGet = inner?.get?.bind(inner);
  if (innerGet) {
    backend.get = (rootDir, getOptions): Promise<MemoryGetResult> => innerGet(rootDir, getOptions);
  }
  return backend;
}
