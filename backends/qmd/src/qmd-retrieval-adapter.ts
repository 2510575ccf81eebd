import type { RetrievalAdapterFactoryOptions, RetrievalAdapterRegistration } from '@cairn/core';
import {
  type AdapterFallback,
  createIndexedRetrievalAdapter,
  type IndexedRetrievalAdapter,
  recallCapabilities,
} from '@cairn/index-kit';
import { qmdIndex } from './qmd-backend';
import type { QmdRefreshStats } from './qmd-search-index';

export const qmdRetrievalCapabilities = recallCapabilities(qmdIndex);

export type QmdRetrievalAdapter = IndexedRetrievalAdapter<QmdRefreshStats>;

/**
 * The qmd retrieval adapter: the workspace (hot, the same collection the
 * qmd backend searches) and every registered pool folder as qmd
 * collections, recalled with one `qmd search` over the eligible ones.
 * When qmd is missing, fails or times out, recall answers from `fallback`
 * (the engine passes the file adapter), with the reason in `warnings` and
 * `status()`.
 */
export function createQmdRetrievalAdapter(
  factory: RetrievalAdapterFactoryOptions,
  composition: { fallback?: AdapterFallback } = {},
): QmdRetrievalAdapter {
  return createIndexedRetrievalAdapter(qmdIndex, factory, composition);
}

/** The adapter alone, without a fallback; the engine builds it from `qmdIndex` instead. */
export const qmdRetrievalAdapter: RetrievalAdapterRegistration = {
  id: 'qmd',
  capabilities: qmdRetrievalCapabilities,
  create: (factory) => createQmdRetrievalAdapter(factory),
};
