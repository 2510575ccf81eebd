import { CairnError, redactStrings } from '@cairn/core';

/** Not node:timers/promises: loading it costs every process that merely imports this module. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One OpenAI-compatible endpoint (chat completions, embeddings...) and how to call it. */
export interface JsonEndpoint {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  fetch: typeof fetch;
}

/** What the caller's errors say: its name and the hints that name its settings. */
export interface EndpointWording {
  /** `Summarizer`, `Embedder`: starts every error message. */
  subject: string;
  /** Whether a timeout is retried like a network error, or fails at once. */
  retryTimeouts: boolean;
  hints: {
    credentials: string;
    notFound: string;
    /** `attempts` is how many were made. */
    exhausted: (attempts: number) => string;
    rejected: string;
    timeout: string;
    unreachable: (reason: string | undefined) => string;
    notJson: string;
  };
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
  endpoint: JsonEndpoint,
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

function statusHint(wording: EndpointWording, status: number, attempts: number): string {
  if (status === 401 || status === 403) return wording.hints.credentials;
  if (status === 404) return wording.hints.notFound;
  if (status === 429 || status >= 500) return wording.hints.exhausted(attempts);
  return wording.hints.rejected;
}

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

function failedFetch(
  endpoint: JsonEndpoint,
  wording: EndpointWording,
  error: unknown,
  attempt: number,
): Attempt {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    const failure = unavailable(
      endpoint,
      `${wording.subject} endpoint timed out`,
      wording.hints.timeout,
      { attempt },
      error,
    );
    return wording.retryTimeouts
      ? { kind: 'retry', error: failure }
      : { kind: 'fail', error: failure };
  }
  const reason = error instanceof Error ? (error.cause as Error | undefined)?.message : undefined;
  const failure = unavailable(
    endpoint,
    `${wording.subject} endpoint unreachable`,
    wording.hints.unreachable(reason),
    { attempt },
    error,
  );
  return { kind: 'retry', error: failure };
}

async function attemptOnce(
  endpoint: JsonEndpoint,
  wording: EndpointWording,
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
    return failedFetch(endpoint, wording, error, attempt);
  }
  if (response.ok) {
    try {
      return { kind: 'ok', body: JSON.parse(text) };
    } catch (error) {
      const summary = `${wording.subject} reply is not JSON`;
      return {
        kind: 'fail',
        error: unavailable(endpoint, summary, wording.hints.notJson, {}, error),
      };
    }
  }
  const status = response.status;
  const error = unavailable(
    endpoint,
    `${wording.subject} endpoint answered HTTP ${status}`,
    statusHint(wording, status, attempt),
    { status, attempt, body: snippet(text, endpoint.apiKey) },
  );
  if (!(status === 429 || status >= 500)) return { kind: 'fail', error };
  return { kind: 'retry', error, retryAfterMs: retryAfterMs(response) };
}

/**
 * POSTs a JSON request to an OpenAI-compatible endpoint and returns the
 * parsed reply. Network errors, 429 and 5xx (and timeouts, when the wording
 * says so) are retried up to `maxRetries` times with exponential backoff
 * (retryDelayMs, 2x, 4x..., at least Retry-After, at most 30 s); other
 * replies fail at once. Every failure is a CairnError BACKEND_UNAVAILABLE;
 * the API key only travels in the Authorization header, never in an error.
 * Every string of the payload goes through redactSecrets first: whatever a
 * caller builds (summary prompts, embedding inputs), no credential leaves
 * the machine in a request body.
 */
export async function postJson(
  endpoint: JsonEndpoint,
  wording: EndpointWording,
  payload: object,
): Promise<unknown> {
  const body = JSON.stringify(redactStrings(payload).value);
  let last: Extract<Attempt, { kind: 'retry' }> | undefined;
  for (let attempt = 1; attempt <= endpoint.maxRetries + 1; attempt += 1) {
    if (last) {
      const backoff = endpoint.retryDelayMs * 2 ** (attempt - 2);
      await sleep(Math.min(MAX_DELAY_MS, Math.max(backoff, last.retryAfterMs ?? 0)));
    }
    const result = await attemptOnce(endpoint, wording, body, attempt);
    if (result.kind === 'ok') return result.body;
    if (result.kind === 'fail') throw result.error;
    last = result;
  }
  throw last!.error;
}
