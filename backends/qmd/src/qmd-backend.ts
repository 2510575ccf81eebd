import {
  type BackendComposition,
  createIndexedBackend,
  defineIndexBackend,
  type IndexedBackend,
} from '@cairn/index-kit';
import { type QmdCommand, resolveQmdCommand } from './qmd-command';
import { type QmdBackendOptions, type ResolvedQmdOptions, resolveQmdOptions } from './qmd-options';
import { type QmdRefreshStats, QmdSearchIndex } from './qmd-search-index';

/** The package's entry points, all built from its index registration. */
export const qmd = defineIndexBackend<QmdBackendOptions, ResolvedQmdOptions, QmdRefreshStats>({
  type: 'qmd',
  name: 'qmd (markdown in .cairn/memory/, search through the qmd CLI)',
  engine: 'qmd',
  // Every filter is checked on the chunks qmd's documents resolve to.
  capabilities: { semantic: false, keyword: true, filters: [] },
  parseOptions: resolveQmdOptions,
  create: ({ rootDir, dataDir, options, warn }) =>
    new QmdSearchIndex(rootDir, options, resolveQmdCommand(options.command), warn, dataDir),
});

/** qmd's `search` is BM25 only; its vector modes need GGUF models Cairn never downloads. */
export const qmdIndex = qmd.index;

/** Storage is the file workspace's: markdown, atomic writes. Only search goes through qmd. */
export const qmdCapabilities = qmd.capabilities;

export interface QmdBackend extends IndexedBackend<QmdRefreshStats> {
  /** The qmd command in use, or undefined when qmd was not found (search uses the file index). */
  readonly command: QmdCommand | undefined;
  /** Runs pending debounced updates now and waits for them. */
  flush(): Promise<void>;
}

/**
 * A MemoryBackend whose storage is the file workspace (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search runs the
 * real qmd CLI (`qmd search --json`, BM25) over a collection of the
 * workspace, indexed under `.cairn/index/qmd/`. Writes schedule a debounced
 * `qmd update`. When qmd is missing, fails or times out, search answers
 * from `fallback` (the engine passes the file index) with the reason in
 * `warnings`.
 */
export function createQmdBackend(
  input: QmdBackendOptions = {},
  composition: BackendComposition = {},
): QmdBackend {
  const opened: QmdSearchIndex[] = [];
  const backend = createIndexedBackend(
    {
      ...qmdIndex,
      create: (context) => {
        const index = qmdIndex.create(context) as QmdSearchIndex;
        opened.push(index);
        return index;
      },
    },
    input,
    composition,
  );
  return Object.assign(backend, {
    command: resolveQmdCommand(resolveQmdOptions(input).command),
    flush: async () => {
      await Promise.all(opened.map((index) => index.flush()));
    },
  });
}
