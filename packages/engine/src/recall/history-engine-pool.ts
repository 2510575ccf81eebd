import { createFileRetrievalAdapter } from '@cairn/backend-file';
import type { EnginePool } from './engine-pool';
// Types only: the search-only bundle (`cairn search`) never loads the history modules.
import type { HistoryRecords } from './history-pool';

/**
 * The history pool beside the index adapter. When the adapter's index
 * stores records (`MemoryIndexCapabilities.records`: the file index,
 * LanceDB, Qdrant, Mem0) it is one of that adapter's pools and this pool
 * answers nothing: the adapter does. Otherwise (qmd reads whole folders
 * through its CLI; a third-party adapter) the records are indexed by the
 * local file index (`.cairn/index/pools.sqlite`) and recalled here.
 */
export function historyEnginePool(
  rootDir: string,
  records: HistoryRecords,
  index: { ready: () => Promise<unknown>; carried: () => boolean },
): EnginePool {
  let adapter: ReturnType<typeof createFileRetrievalAdapter> | undefined;
  const open = () =>
    (adapter ??= createFileRetrievalAdapter(
      { rootDir },
      { sourcePools: [{ definition: records.definition, source: records.source }] },
    ));
  return {
    definition: records.definition,
    carriedByIndex: index.carried,
    async recall(query) {
      await index.ready();
      if (index.carried()) return [];
      return open().recall({ ...query, poolIds: [records.definition.id] });
    },
    describe: () => ({ records: true, indexedBy: index.carried() ? 'adapter' : 'file' }),
    close: async () => {
      await adapter?.close();
      records.close();
    },
  };
}
