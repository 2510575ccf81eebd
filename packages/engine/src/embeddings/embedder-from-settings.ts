import { join } from 'node:path';
import type { HybridRanking } from '@cairn/backend-file';
import {
  CairnError,
  type CairnSettings,
  cairnIndexPath,
  createHashEmbedder,
  describeZodIssue,
  type Embedder,
  embedderSettingsSchema,
  lazySchema,
  type ResolvedEmbedderSettings,
  safeParse,
} from '@cairn/core';
import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';
import { createCachedEmbedder, EMBEDDING_CACHE_FILENAME } from './embedding-cache';
import { createOpenAiEmbedder } from './openai-embedder';
import { createTransformersEmbedder } from './transformers-embedder';

// zod/mini: `cairn search` builds this on every start (see core's contracts/schemas.ts).
const share = (min = 0) => z.optional(z.number().check(z.gte(min), z.lte(1)));

const searchSettingsSchema = lazySchema(() =>
  z.object({
    vectorWeight: share(),
    keywordWeight: share(),
    mmr: z.optional(z.boolean()),
    mmrLambda: share(),
    minSimilarity: share(-1),
    recencyHalfLifeDays: z.optional(z.number().check(z.gte(0))),
  }),
);

function invalid(key: string, reason: string, hint: string): CairnError {
  return new CairnError('INVALID_CONFIG', `Invalid setting "embedder.${key}": ${reason}`, {
    hint,
    details: { key: `embedder.${key}`, reason },
  });
}

function parse<T extends z4.$ZodType>(schema: T, value: unknown, group: string): z.output<T> {
  const parsed = safeParse(schema, value ?? {});
  if (parsed.success) return parsed.data;
  const { key, reason } = describeZodIssue(parsed.error);
  throw new CairnError('INVALID_CONFIG', `Invalid setting "${group}.${key}": ${reason}`, {
    hint: 'see docs/CONFIG.md and docs/SEARCH.md',
    details: { key: `${group}.${key}`, reason },
  });
}

function needDimensions(provider: string, dimensions: number): number {
  if (dimensions > 0) return dimensions;
  throw invalid(
    'dimensions',
    `required for provider "${provider}"`,
    "set embedder.dimensions to the model's vector size (e.g. 1536 for text-embedding-3-small, 768 for nomic-embed-text, 384 for all-MiniLM-L6-v2)",
  );
}

function openAiFrom(settings: ResolvedEmbedderSettings, env: NodeJS.ProcessEnv): Embedder {
  const example =
    'e.g. baseUrl "http://127.0.0.1:11434/v1" and model "nomic-embed-text" for Ollama';
  if (!settings.baseUrl)
    throw invalid('baseUrl', 'required for provider "openai"', `set embedder.baseUrl, ${example}`);
  if (!settings.model)
    throw invalid('model', 'required for provider "openai"', `set embedder.model, ${example}`);
  let apiKey: string | undefined;
  if (settings.apiKeyEnv) {
    apiKey = env[settings.apiKeyEnv]?.trim();
    if (!apiKey) {
      throw invalid(
        'apiKeyEnv',
        `environment variable ${settings.apiKeyEnv} is not set`,
        `export ${settings.apiKeyEnv}, or set embedder.apiKeyEnv to "" for a local server that needs no key`,
      );
    }
  }
  return createOpenAiEmbedder({
    baseUrl: settings.baseUrl,
    model: settings.model,
    dimensions: needDimensions('openai', settings.dimensions),
    batchSize: settings.batchSize,
    timeoutMs: settings.timeoutMs,
    ...(apiKey ? { apiKey } : {}),
  });
}

/**
 * The embedder the settings ask for, or undefined for `none`. `openai` and
 * `transformers` answer through a cache in `.cairn/index/embeddings.sqlite`;
 * `hash` is cheaper than a cache lookup and has none. Configuration
 * mistakes throw INVALID_CONFIG here; a missing package or model folder,
 * or an unreachable server, shows at the first embed (and search falls
 * back to keyword, saying so).
 */
export function embedderFromSettings(
  settings: CairnSettings,
  rootDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Embedder | undefined {
  const raw = (settings as unknown as { embedder?: unknown }).embedder;
  const parsed = parse(embedderSettingsSchema, raw, 'embedder');
  const cached = (inner: Embedder) =>
    createCachedEmbedder(inner, join(cairnIndexPath(rootDir), EMBEDDING_CACHE_FILENAME));
  switch (parsed.provider) {
    case 'none':
      return undefined;
    case 'hash':
      return createHashEmbedder(parsed.dimensions > 0 ? { dimensions: parsed.dimensions } : {});
    case 'openai':
      return cached(openAiFrom(parsed, env));
    case 'transformers':
      return cached(
        createTransformersEmbedder({
          model: parsed.model,
          modelDir: parsed.modelDir,
          dimensions: needDimensions('transformers', parsed.dimensions),
          allowDownload: parsed.allowDownload,
        }),
      );
  }
}

/** The `search.*` ranking settings, for the file backend's hybrid search. */
export function rankingFromSettings(settings: CairnSettings): Partial<HybridRanking> {
  const raw = (settings as unknown as { search?: unknown }).search;
  const parsed = parse(searchSettingsSchema, raw, 'search');
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
}
