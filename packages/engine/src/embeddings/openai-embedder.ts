import {
  CairnError,
  describeZodIssue,
  type Embedder,
  intInRange,
  lazySchema,
  safeParse,
} from '@cairn/core';
import * as z from 'zod/mini';
import { type EmbeddingsEndpoint, postEmbeddings } from './embeddings-http';

export interface OpenAiEmbedderOptions {
  /** The API root: `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama), vLLM, LM Studio. */
  baseUrl: string;
  model: string;
  /** The vector size the model returns; every reply is checked against it. */
  dimensions: number;
  /** Sent as `Authorization: Bearer ...` only when set; local servers need none. */
  apiKey?: string;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Per attempt. Default 30 000. */
  timeoutMs?: number;
  /** Retries after a network error, timeout, 429 or 5xx. Default 2 (a search waits for them). */
  maxRetries?: number;
  /** First backoff delay; doubles per retry. Default 250. */
  retryDelayMs?: number;
  /** Ask the server for `dimensions` (OpenAI text-embedding-3 can shorten vectors). Default false. */
  sendDimensions?: boolean;
  /** For tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
}

// zod/mini, like the settings it is built from (see embedder-from-settings.ts).

const optionsSchema = lazySchema(() =>
  z.object({
    baseUrl: z.url({ protocol: /^https?$/ }),
    model: z.string().check(z.trim(), z.minLength(1)),
    dimensions: intInRange(1, 8192),
    apiKey: z.optional(z.string()),
    batchSize: z._default(intInRange(1, 2048), 64),
    timeoutMs: z._default(intInRange(1), 30_000),
    maxRetries: z._default(intInRange(0, 10), 2),
    retryDelayMs: z._default(intInRange(0), 250),
    sendDimensions: z._default(z.boolean(), false),
    fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
  }),
);

const replySchema = lazySchema(() =>
  z.object({
    data: z.array(z.object({ index: intInRange(0), embedding: z.array(z.number()) })),
  }),
);

/** `<baseUrl>/embeddings`, with or without a trailing slash; a full endpoint URL is kept. */
export function embeddingsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/embeddings') ? trimmed : `${trimmed}/embeddings`;
}

function parseOptions(options: OpenAiEmbedderOptions): z.output<typeof optionsSchema> {
  const parsed = safeParse(optionsSchema, options);
  if (parsed.success) return parsed.data;
  const { key, reason } = describeZodIssue(parsed.error);
  throw new CairnError('INVALID_CONFIG', `Invalid embedder option "${key}": ${reason}`, {
    hint: 'set embedder.baseUrl (an http(s) URL ending in /v1), embedder.model and embedder.dimensions',
    details: { key, reason },
  });
}

/** Checks the reply: one finite vector of the declared size per input, put back in input order. */
function vectorsOf(
  body: unknown,
  count: number,
  endpoint: EmbeddingsEndpoint,
  dimensions: number,
): number[][] {
  const reply = safeParse(replySchema, body);
  const bad = (reason: string, details: Record<string, unknown> = {}) =>
    new CairnError('BACKEND_UNAVAILABLE', `Embedder reply unusable: ${reason}`, {
      hint:
        details.got !== undefined
          ? `model "${endpoint.model}" returns ${details.got}-dimensional vectors: set embedder.dimensions to ${details.got} (stored vectors are rebuilt)`
          : `check that ${endpoint.url} is an OpenAI-compatible embeddings API`,
      details: { url: endpoint.url, model: endpoint.model, reason, ...details },
    });
  if (!reply.success) throw bad('no data[].embedding array');
  const out = new Array<number[] | undefined>(count);
  for (const item of reply.data.data) {
    if (item.index >= count) throw bad(`index ${item.index} out of range`);
    if (item.embedding.length !== dimensions) {
      throw bad(`expected ${dimensions} dimensions, got ${item.embedding.length}`, {
        expected: dimensions,
        got: item.embedding.length,
      });
    }
    if (!item.embedding.every(Number.isFinite)) throw bad('non-finite numbers');
    out[item.index] = item.embedding;
  }
  if (out.some((vector) => vector === undefined) || reply.data.data.length !== count) {
    throw bad(`expected ${count} vectors, got ${reply.data.data.length}`);
  }
  return out as number[][];
}

/**
 * Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI,
 * Ollama, vLLM, LM Studio), `batchSize` texts per request, retried with
 * backoff, every vector checked against `dimensions`. Failures are
 * CairnError BACKEND_UNAVAILABLE; hybrid search then falls back to keyword.
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const settings = parseOptions(options);
  const endpoint: EmbeddingsEndpoint = {
    url: embeddingsUrl(settings.baseUrl),
    model: settings.model,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    retryDelayMs: settings.retryDelayMs,
    fetch: settings.fetch ?? globalThis.fetch,
  };
  return {
    id: 'openai',
    model: settings.model,
    dimensions: settings.dimensions,
    async embed(texts) {
      const vectors: number[][] = [];
      for (let at = 0; at < texts.length; at += settings.batchSize) {
        const input = texts.slice(at, at + settings.batchSize);
        const payload: Record<string, unknown> = { model: settings.model, input };
        if (settings.sendDimensions) payload.dimensions = settings.dimensions;
        const body = await postEmbeddings(endpoint, payload);
        vectors.push(...vectorsOf(body, input.length, endpoint, settings.dimensions));
      }
      return vectors;
    },
  };
}
