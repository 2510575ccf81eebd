import type { IndexedRetrievalAdapter } from '@cairn/index-kit';
import { qmd } from './qmd-backend';
import type { QmdRefreshStats } from './qmd-search-index';

export const qmdRetrievalCapabilities = qmd.retrievalCapabilities;

export type QmdRetrievalAdapter = IndexedRetrievalAdapter<QmdRefreshStats>;

/**
 * The qmd retrieval adapter: the workspace (hot, the same collection the
 * qmd backend searches) and every registered pool folder as qmd
 * collections, recalled with one `qmd search` over the eligible ones.
 * When qmd is missing, fails or times out, recall answers from `fallback`
 * (the engine passes the file adapter), with the reason in `warnings` and
 * `status()`.
 */
export const createQmdRetrievalAdapter = qmd.createRetrievalAdapter;

/** The adapter alone, without a fallback; the engine builds it from `qmdIndex` instead. */
export const qmdRetrievalAdapter = qmd.retrievalAdapter;
