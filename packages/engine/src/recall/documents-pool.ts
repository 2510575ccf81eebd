import { createFileRetrievalAdapter, indexedPoolCounts } from '@cairn/backend-file';
import type { CairnSettings, MemoryPoolDefinition } from '@cairn/core';
import { DOCUMENTS_POOL_ID, documentPoolSource } from '@cairn/index-kit';
import type { EnginePool } from './engine-pool';

export { DOCUMENTS_POOL_ID };

/**
 * The project's own documents (cold): README*, AGENTS.md, CLAUDE.md,
 * docs/ and ADR folders by default (`memory.documentGlobs`), chunked by
 * heading and searched through the local file index (`.cairn/index/`),
 * whatever engine recalls the workspace: repository text is not sent to
 * a memory service (Mem0) nor given to an index that reads whole folders
 * (qmd). Undefined when the globs select nothing.
 */
export function documentsPool(
  rootDir: string,
  settings: CairnSettings,
  fileOptions: Record<string, unknown>,
): EnginePool | undefined {
  const { documentGlobs, documentMaxFileBytes, documentMaxTotalBytes } = settings.memory;
  if (documentGlobs.length === 0) return undefined;
  const definition: MemoryPoolDefinition = { id: DOCUMENTS_POOL_ID, tier: 'cold', path: '.' };
  const source = documentPoolSource(rootDir, {
    globs: documentGlobs,
    maxFileBytes: documentMaxFileBytes,
    maxTotalBytes: documentMaxTotalBytes,
  });
  let adapter: ReturnType<typeof createFileRetrievalAdapter> | undefined;
  const open = () =>
    (adapter ??= createFileRetrievalAdapter(
      { rootDir, options: fileOptions },
      { sourcePools: [{ definition, source }] },
    ));
  return {
    definition,
    // The adapter's workspace pool is its own business: only the documents are asked for.
    recall: (query) => open().recall({ ...query, poolIds: [DOCUMENTS_POOL_ID] }),
    // How many documents and sections the index holds (`cairn status`, `cairn doctor`).
    describe: async () => {
      const counts = indexedPoolCounts(rootDir, DOCUMENTS_POOL_ID);
      return {
        globs: [...documentGlobs],
        ...(counts ? { documents: counts.files, sections: counts.chunks } : {}),
      };
    },
    close: async () => adapter?.close(),
  };
}
