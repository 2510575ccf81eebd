import { type BackendOptionTrust, hashEmbedderRule } from '@cairn/core';

/**
 * Which qdrant options an untrusted project config may set (see
 * docs/SECURITY.md). The server and its key need trust: otherwise the
 * default (`$QDRANT_URL`, else localhost) is used.
 */
export const qdrantOptionTrust = {
  url: 'network',
  apiKey: 'network',
  namespace: false,
  collectionPrefix: false,
  repo: false,
  securityScope: false,
  embedder: hashEmbedderRule,
  sparse: false,
  minSimilarity: false,
  chunk: false,
  timeoutMs: false,
  checkCompatibility: false,
  getMaxLines: false,
} as const satisfies BackendOptionTrust;
