import { setTimeout as sleep } from 'node:timers/promises';
import { CairnError } from '@cairn/core';

export interface ChatEndpoint {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  fetch: typeof fetch;
}

type Attempt =
  | { kind: 'ok'; body: unknown }
  | { kind: 'retry'; error: CairnError; retryAfterMs?: number }
  | { kind: 'fail'; error: CairnError };

const MAX_DELAY_MS = 30_000;
const BODY_SNIPPET_CHARS = 300;

/** A server's error body, short and with the API key removed should it echo it. */
function snippet(text: string, apiKey: string | undefined): string {
  const redacted = apiKey ? text.split(apiKey).join('[redacted]') : text;
  return redacted.replace(/\s+/g, ' ').trim().slice(0, BODY_SNIPPET_CHARS);
}

function unavailable(
  endpoint: ChatEndpoint,
  summary: string,
  hint: string,
  details: Record<string, unknown>,
  cause?: unknown,
): CairnError {
  return new CairnError('BACKEND_UNAVAILABLE', summary, {
    cause,
    hint,
    details: { url: endpoint.url, model: endpoint.model, ...details },
  });
}

function statusHint(endpoint: ChatEndpoint, status: number, attempts: number): string {
  const { url, model } = endpoint;
  if (status === 401 || status === 403) {
    return `${url} refused the credentials; check the API key (the apiKeyEnv variable) and that it may use model "${model}"`;
  }
  if (status === 404) {
    return `check that baseUrl ends in /v1 (${url} was not found) and that model "${model}" exists on the server`;
  }
  if (status === 429 || status >= 500) {
    return `${url} still failed after ${attempts} attempt(s); check the server's logs and load, try again later, or raise maxRetries`;
  }
  return `${url} rejected the request; check model "${model}" and that the server speaks the OpenAI chat completions API`;
}

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

function failedAttempt(endpoint: ChatEndpoint, error: unknown, attempt: number): Attempt {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    // Not retried: a model that used the whole timeout is likely to do it again.
    const hint = `no reply from ${endpoint.url} within ${endpoint.timeoutMs} ms; check that model "${endpoint.model}" is loaded and the server is not overloaded, or raise timeoutMs`;
    const failure = unavailable(
      endpoint,
      'Summarizer endpoint timed out',
      hint,
      { attempt },
      error,
    );
    return { kind: 'fail', error: failure };
  }
  const reason = error instanceof Error ? (error.cause as Error | undefined)?.message : undefined;
  const hint = `could not reach ${endpoint.url}${reason ? ` (${reason})` : ''}; check that the server is running and listening there (for Ollama: \`ollama serve\`) and that baseUrl ends in /v1`;
  const failure = unavailable(
    endpoint,
    'Summarizer endpoint unreachable',
    hint,
    { attempt },
    error,
  );
  return { kind: 'retry', error: failure };
}

async function attemptOnce(
  endpoint: ChatEndpoint,
  body: string,
  attempt: number,
): Promise<Attempt> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
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
    return failedAttempt(endpoint, error, attempt);
  }
  if (response.ok) {
    try {
      return { kind: 'ok', body: JSON.parse(text) };
    } catch (error) {
      const hint = `${endpoint.url} did not answer with JSON; check that baseUrl points at an OpenAI-compatible /v1 API`;
      return {
        kind: 'fail',
        error: unavailable(endpoint, 'Summarizer reply is not JSON', hint, {}, error),
      };
    }
  }
  const status = response.status;
  const retryable = status === 429 || status >= 500;
  const error = unavailable(
    endpoint,
    `Summarizer endpoint answered HTTP ${status}`,
    statusHint(endpoint, status, attempt),
    { status, attempt, body: snippet(text, endpoint.apiKey) },
  );
  if (!retryable) return { kind: 'fail', error };
  return { kind: 'retry', error, retryAfterMs: retryAfterMs(response) };
}

/**
 * POSTs a chat completion request and returns the parsed JSON reply.
 * Network errors, 429 and 5xx are retried up to `maxRetries` times with
 * exponential backoff (retryDelayMs, 2x, 4x..., at least Retry-After, at
 * most 30 s); other 4xx, timeouts and non-JSON replies fail at once.
 * Every failure is a CairnError BACKEND_UNAVAILABLE; the API key is only
 * ever sent in the Authorization header, never logged or put in an error.
 */
export async function postChatCompletion(
  endpoint: ChatEndpoint,
  payload: object,
): Promise<unknown> {
  const body = JSON.stringify(payload);
  let last: Extract<Attempt, { kind: 'retry' }> | undefined;
  for (let attempt = 1; attempt <= endpoint.maxRetries + 1; attempt += 1) {
    if (last) {
      const backoff = endpoint.retryDelayMs * 2 ** (attempt - 2);
      await sleep(Math.min(MAX_DELAY_MS, Math.max(backoff, last.retryAfterMs ?? 0)));
    }
    const result = await attemptOnce(endpoint, body, attempt);
    if (result.kind === 'ok') return result.body;
    if (result.kind === 'fail') throw result.error;
    last = result;
  }
  // maxRetries >= 0, so at least one attempt ran and failed retryably.
  throw last!.error;
}
