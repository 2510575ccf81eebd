import { type BackendOptionTrust, hashEmbedderRule, localPathRule } from '@cairn/core';

/**
 * Which mem0 options an untrusted project config may set (see
 * docs/SECURITY.md). Platform mode, its host and key, an LLM, inference
 * (which calls the LLM), another vector store and telemetry all send data
 * off the machine, so they need trust.
 */
export const mem0OptionTrust = {
  mode: (value) => (value === 'oss' ? false : 'network'),
  host: 'network',
  apiKeyEnv: 'network',
  llm: 'network',
  infer: (value) => (value === false ? false : 'network'),
  vectorStore: 'network',
  telemetry: (value) => (value === false ? false : 'network'),
  dataDir: localPathRule,
  embedder: hashEmbedderRule,
  scope: false,
  namespace: false,
  repo: false,
  threshold: false,
  chunk: false,
  syncOnWrite: false,
  getMaxLines: false,
} as const satisfies BackendOptionTrust;
