/** Embedders (OpenAI-compatible HTTP, local transformers) and their cache, chosen from settings. */
export { embedderFromSettings, rankingFromSettings } from './embedder-from-settings';
