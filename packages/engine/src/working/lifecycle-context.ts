import type { CairnSettings, Embedder, LifecycleResult } from '@cairn/core';
import type { MemoryApi } from '../cairn-api';
import { type LineageStore, openLineageStore } from '../lineage';

/** What the lifecycle and the parts behind it work with: one project, opened. */
export interface LifecycleContext {
  rootDir: string;
  settings: CairnSettings;
  memory: MemoryApi;
  now: () => Date;
  /** The configured embedder, if any (transcript recall ranks by meaning with it). */
  embedder?: () => Embedder | undefined;
  /** Where the summarizer reads its API key (`apiKeyEnv`); defaults to process.env. */
  env?: Record<string, string | undefined>;
}

export type { LifecycleResult };

export const EMPTY_RESULT: LifecycleResult = { inject: '' };

/** The lineage store, opened on first use (a prompt that recalls from units never opens it). */
export function lazyLineage(ctx: LifecycleContext) {
  let lineage: LineageStore | undefined;
  return {
    store: (): LineageStore => (lineage ??= openLineageStore(ctx.rootDir, { now: ctx.now })),
    /** Whether this event has opened it already (the pack's history plane reads only then). */
    isOpen: (): boolean => lineage !== undefined,
    close: (): void => lineage?.close(),
  };
}
