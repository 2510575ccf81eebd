import { fileCapabilities } from '@cairn/backend-file';
import { type MemoryBackend, MemoryBackendError } from '@cairn/core';

/** A backend whose package is imported on first use, and a way to wait for it. */
export interface DeferredBackend {
  backend: MemoryBackend;
  /** Loads (once) and returns the backend every call goes to. */
  ready(): Promise<MemoryBackend>;
}

function unsupported(backend: MemoryBackend, member: string): MemoryBackendError {
  return new MemoryBackendError(
    'UNSUPPORTED',
    backend.type,
    `The "${backend.type}" backend has no ${member}`,
  );
}

/**
 * The backend of an optional package that is not imported yet. `openCairn`
 * stays synchronous: the package loads on the first call that needs the
 * backend, and every call then goes to what `load` built (the package's
 * backend, or the file fallback when it could not be loaded). Until then it
 * reports the configured type and the file workspace's capabilities, which
 * every optional backend has: their storage is the file workspace.
 */
export function deferredBackend(type: string, load: () => Promise<MemoryBackend>): DeferredBackend {
  let loaded: MemoryBackend | undefined;
  let loading: Promise<MemoryBackend> | undefined;
  const ready = () =>
    (loading ??= load().then((backend) => {
      loaded = backend;
      return backend;
    }));
  const backend: MemoryBackend = {
    get type() {
      return loaded?.type ?? type;
    },
    get name() {
      return loaded?.name ?? `${type} (loaded on first use)`;
    },
    get capabilities() {
      return loaded?.capabilities ?? fileCapabilities;
    },
    get warnings() {
      return loaded?.warnings ?? [];
    },
    read: async (rootDir) => (await ready()).read(rootDir),
    write: async (rootDir, content) => (await ready()).write(rootDir, content),
    async get(rootDir, options) {
      const inner = await ready();
      if (!inner.get) throw unsupported(inner, 'get');
      return inner.get(rootDir, options);
    },
    async search(rootDir, options) {
      const inner = await ready();
      if (!inner.search) throw unsupported(inner, 'search');
      return inner.search(rootDir, options);
    },
    async exists(rootDir) {
      const inner = await ready();
      return inner.exists ? inner.exists(rootDir) : (await inner.read(rootDir)).exists;
    },
    async refresh(rootDir) {
      const inner = await ready();
      return inner.refresh ? inner.refresh(rootDir) : {};
    },
    async rebuild(rootDir) {
      const inner = await ready();
      if (!inner.rebuild) throw unsupported(inner, 'rebuild');
      return inner.rebuild(rootDir);
    },
    async close() {
      await loaded?.close?.();
    },
  };
  return { backend, ready };
}
