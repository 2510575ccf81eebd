import { setTimeout as sleep } from 'node:timers/promises';
import { CairnError } from '@cairn/core';

/** Where and how the `openai` embedder posts. */
export interface EmbeddingsEndpoint {
  /** `<baseUrl>/embeddings`. */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  fetch: typeof fetch;
}

const MAX_DELAY_MS = 30_000;

function failure(
  endpoint: EmbeddingsEndpoint,
  summary: string,
  hint: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): CairnError {
  return new CairnError('BACKEND_UNAVAILABLE', summary, {
    cause,
    hint,
    details: { url: endpoint.url, model: endpoint.model, ...details },
  });
}

/** The error body, short, without the API key should the server echo it. */
function bodySnippet(text: string, apiKey: string | undefined): string {
  const redacted = apiKey ? text.split(apiKey).join('[redacted]') : text;
  return redacted.replace(/\s+/g, ' ').trim().slice(0, 300);
}

function statusHint(endpoint: EmbeddingsEndpoint, status: number): string {
  if (status === 401 || status === 403) {
    return `${endpoint.url} refused the credentials; check the key in the embedder.apiKeyEnv variable`;
  }
  if (status === 404) {
    return `check that embedder.baseUrl ends in /v1 and that model "${endpoint.model}" is served there (for Ollama: \`ollama pull ${endpoint.model}\`)`;
  }
  if (status === 429 || status >= 500) {
    return `${endpoint.url} kept failing after ${endpoint.maxRetries + 1} attempt(s); check the server's load and logs, or try later`;
  }
  return `${endpoint.url} rejected the request; check model "${endpoint.model}" and that the server speaks the OpenAI embeddings API`;
}

type Attempt =
  | { ok: true; body: unknown }
  | { ok: false; error: CairnError; retry: boolean; waitMs?: number };

async function attempt(endpoint: EmbeddingsEndpoint, body: string): Promise<Attempt> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let response: Response;
  let text: string;
  try {
    response = await endpoint.fetch(endpoint.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const name = (error as Error | undefined)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      const hint = `no reply within ${endpoint.timeoutMs} ms; check that the server is up and the model loaded, or raise embedder.timeoutMs`;
      return {
        ok: false,
        retry: true,
        error: failure(endpoint, 'Embedder request timed out', hint, {}, error),
      };
    }
    const hint = `could not reach ${endpoint.url}; check that the server runs there and embedder.baseUrl ends in /v1`;
    return {
      ok: false,
      retry: true,
      error: failure(endpoint, 'Embedder endpoint unreachable', hint, {}, error),
    };
  }
  if (response.ok) {
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch (error) {
      const hint = `${endpoint.url} did not answer with JSON; check embedder.baseUrl`;
      return {
        ok: false,
        retry: false,
        error: failure(endpoint, 'Embedder reply is not JSON', hint, {}, error),
      };
    }
  }
  const status = response.status;
  const error = failure(
    endpoint,
    `Embedder endpoint answered HTTP ${status}`,
    statusHint(endpoint, status),
    {
      status,
      body: bodySnippet(text, endpoint.apiKey),
    },
  );
  const seconds = Number(response.headers.get('retry-after'));
  const waitMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
  return {
    ok: false,
    retry: status === 429 || status >= 500,
    error,
    ...(waitMs ? { waitMs } : {}),
  };
}

/**
 * POSTs one embeddings request. Network errors, timeouts, 429 and 5xx are
 * retried up to `maxRetries` times with exponential backoff (retryDelayMs,
 * 2x, 4x..., at least Retry-After, at most 30 s); other replies fail at
 * once. Every failure is a CairnError BACKEND_UNAVAILABLE; the API key only
 * ever travels in the Authorization header.
 */
export async function postEmbeddings(
  endpoint: EmbeddingsEndpoint,
  payload: object,
): Promise<unknown> {
  const body = JSON.stringify(payload);
  let last: Extract<Attempt, { ok: false }> | undefined;
  for (let n = 0; n <= endpoint.maxRetries; n += 1) {
    if (last) {
      const backoff = endpoint.retryDelayMs * 2 ** (n - 1);
      await sleep(Math.min(MAX_DELAY_MS, Math.max(backoff, last.waitMs ?? 0)));
    }
    const result = await attempt(endpoint, body);
    if (result.ok) return result.body;
    if (!result.retry) throw result.error;
    last = result;
  }
  throw last!.error;
}
