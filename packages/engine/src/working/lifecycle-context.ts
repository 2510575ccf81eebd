import type { CairnSettings, Embedder } from '@cairn/core';
import { type LineageStore, openLineageStore } from '../lineage';
import type { MemoryApi } from '../memory-api';

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

/** What an event hands back to the harness; `failed` is set when it failed open. */
export interface LifecycleResult {
  /** Text to inject into the model's context; empty when there is nothing new. */
  inject: string;
  /** The temporal node written, if any. */
  nodeId?: string;
  /** Set when an internal failure was swallowed (see `cairn doctor`). */
  failed?: { code: string; message: string };
}

export const EMPTY_RESULT: LifecycleResult = { inject: '' };

/** The lineage store, opened on first use (a prompt that recalls from units never opens it). */
export function lazyLineage(ctx: LifecycleContext) {
  let lineage: LineageStore | undefined;
  return {
    store: (): LineageStore => (lineage ??= openLineageStore(ctx.rootDir, { now: ctx.now })),
    close: (): void => lineage?.close(),
  };
}
