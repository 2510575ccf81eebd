import {
  createFileBackend,
  createFileRetrievalAdapter,
  fileRetrievalCapabilities,
} from '@cairn/backend-file';
import { createReadonlyBackend } from '@cairn/backend-readonly';
import { getMemoryBackend, registerMemoryBackend, registerRetrievalAdapter } from '@cairn/core';

/**
 * Registers the builtin backends (`file`, and `readonly` as a read-only view
 * of the file workspace) and the builtin `file` retrieval adapter.
 * Idempotent; called by `openCairn` rather than at import time so the
 * package stays free of side effects.
 */
export function registerBuiltins(): void {
  if (getMemoryBackend('file')) return;
  const file = createFileBackend();
  registerMemoryBackend(file);
  registerMemoryBackend(createReadonlyBackend({ inner: file }));
  registerRetrievalAdapter({
    id: 'file',
    capabilities: fileRetrievalCapabilities,
    create: createFileRetrievalAdapter,
  });
}
