export type { EmbedderSettings } from '@cairn/core';
export { embedderFromSettings, rankingFromSettings } from './embedder-from-settings';
export {
  type CachedEmbedder,
  createCachedEmbedder,
  EMBEDDING_CACHE_FILENAME,
} from './embedding-cache';
export { createOpenAiEmbedder, embeddingsUrl, type OpenAiEmbedderOptions } from './openai-embedder';
export {
  createTransformersEmbedder,
  TRANSFORMERS_PACKAGE,
  type TransformersEmbedderOptions,
  type TransformersModule,
} from './transformers-embedder';
