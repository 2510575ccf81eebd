import { type BackendOptionTrust, hashEmbedderRule, localPathRule } from '@cairn/core';

/**
 * Which qmd options an untrusted project config may set (see
 * docs/SECURITY.md). `command` and `env` decide what runs, so they need
 * trust; an index folder outside the project does too.
 */
export const qmdOptionTrust = {
  command: 'exec',
  env: 'exec',
  indexDir: localPathRule,
  collection: false,
  searchTimeoutMs: false,
  updateTimeoutMs: false,
  updateDebounceMs: false,
  getMaxLines: false,
  embedder: hashEmbedderRule,
} as const satisfies BackendOptionTrust;
