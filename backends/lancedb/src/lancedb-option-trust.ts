import { type BackendOptionTrust, hashEmbedderRule, localPathRule } from '@cairn/core';

/**
 * Which lancedb options an untrusted project config may set (see
 * docs/SECURITY.md). A `uri` inside the project is fine; object storage
 * (`s3://`, `gs://`, `az://`, `db://`, http) or a folder outside the
 * project needs trust, and so do storage credentials.
 */
export const lancedbOptionTrust = {
  uri: localPathRule,
  storageOptions: 'network',
  tableName: false,
  repo: false,
  namespace: false,
  embedder: hashEmbedderRule,
  searchMode: false,
  vectorIndexThreshold: false,
  onEmbedderChange: false,
  chunk: false,
  readConsistencyInterval: false,
  rrfK: false,
  minSimilarity: false,
  getMaxLines: false,
} as const satisfies BackendOptionTrust;
