import {
  createFileBackend,
  createFileRetrievalAdapter,
  fileRetrievalCapabilities,
} from '@cairn/backend-file';
import { createReadonlyBackend } from '@cairn/backend-readonly';
import {
  type CairnSettings,
  getMemoryBackend,
  type MemoryBackend,
  registerMemoryBackend,
  registerRetrievalAdapter,
} from '@cairn/core';
import { embedderFromSettings, rankingFromSettings } from './embeddings';

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

/**
 * The backend one project uses. The registered builtins are shared and
 * keyword-only; when settings configure an embedder, `file` (and
 * `readonly` over it) get their own instance with hybrid search.
 * Any other backend is returned as resolved.
 */
export function projectBackend(
  resolved: MemoryBackend,
  settings: CairnSettings,
  rootDir: string,
  env: NodeJS.ProcessEnv = process.env,
): MemoryBackend {
  if (resolved.type !== 'file' && resolved.type !== 'readonly') return resolved;
  const embedder = embedderFromSettings(settings, rootDir, env);
  if (!embedder) return resolved;
  const file = createFileBackend({ embedder, ranking: rankingFromSettings(settings) });
  return resolved.type === 'file' ? file : createReadonlyBackend({ inner: file });
}
