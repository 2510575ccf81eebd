import {
  CairnError,
  type CairnErrorCode,
  MemoryBackendError,
  type MemoryBackendErrorCode,
} from '@cairn/core';

/** Network failures that mean "no server there" rather than "the server said no". */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

interface HttpFailure {
  status: number;
  message: string;
}

/** The status and Qdrant's own message of an HTTP error from the client, if it is one. */
function httpFailure(error: unknown): HttpFailure | undefined {
  const e = error as { status?: unknown; data?: unknown; message?: unknown; name?: unknown };
  if (e?.name === 'QdrantClientResourceExhaustedError') {
    return { status: 429, message: String(e.message) };
  }
  if (typeof e?.status === 'number') {
    const data = e.data as { status?: { error?: unknown } } | undefined;
    const reason = data?.status?.error;
    return { status: e.status, message: typeof reason === 'string' ? reason : String(e.message) };
  }
  // The client's own error for an unexpected 2xx/3xx: "Unexpected Response: 202 (Accepted)…".
  const match = /^Unexpected Response: (\d{3})/.exec(String(e?.message ?? ''));
  return match ? { status: Number(match[1]), message: String(e.message) } : undefined;
}

/** The errno-like code of a network failure, looked up through `cause` chains. */
function networkCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (typeof current.code === 'string' && UNREACHABLE.has(current.code)) return current.code;
    const nested = current.errors?.find((inner) => networkCode(inner));
    if (nested) return networkCode(nested);
    current = current.cause as typeof current;
  }
  return undefined;
}

function statusCode(status: number): MemoryBackendErrorCode | 'INVALID_INPUT' | 'INVALID_CONFIG' {
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'QUOTA_EXCEEDED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 401 || status === 403) return 'INVALID_CONFIG';
  if (status >= 400 && status < 500) return 'INVALID_INPUT';
  return 'BACKEND_UNAVAILABLE';
}

const HINTS: Partial<Record<CairnErrorCode, string>> = {
  CONFLICT: 'another writer changed the collection at the same time; run the refresh again',
  QUOTA_EXCEEDED: 'the server is rate limiting or out of quota; retry later or raise the limit',
  NOT_FOUND: 'the collection was deleted while in use; the next refresh recreates it',
  INVALID_CONFIG:
    'the server refused the credentials: set the apiKey option or the QDRANT_API_KEY variable',
  INVALID_INPUT: 'Qdrant rejected the request; check the qdrant options (collection, embedder)',
  BACKEND_UNAVAILABLE: 'the Qdrant server failed; check its logs, or use retrievalAdapter "file"',
};

/**
 * Any failure of a Qdrant call as a typed CairnError: no server (refused,
 * unknown host, timeout) is BACKEND_UNAVAILABLE with how to start one; an
 * HTTP answer maps by status (409 CONFLICT, 429 QUOTA_EXCEEDED, 401/403
 * INVALID_CONFIG, other 4xx INVALID_INPUT, 5xx BACKEND_UNAVAILABLE).
 */
export function mapQdrantError(error: unknown, operation: string, url: string): CairnError {
  if (CairnError.isInstance(error)) return error;
  const details = { operation, url };
  const http = httpFailure(error);
  if (http) {
    const code = statusCode(http.status);
    const summary = `Qdrant ${operation} failed with HTTP ${http.status}: ${http.message.split('\n')[0]}`;
    const options = {
      cause: error,
      hint: HINTS[code],
      details: { ...details, status: http.status },
    };
    return code === 'INVALID_INPUT' || code === 'INVALID_CONFIG'
      ? new CairnError(code, summary, options)
      : new MemoryBackendError(code, 'qdrant', summary, options);
  }
  const name = (error as { name?: unknown })?.name;
  const network = networkCode(error);
  if (network || name === 'QdrantClientTimeoutError' || name === 'AbortError') {
    return new MemoryBackendError(
      'BACKEND_UNAVAILABLE',
      'qdrant',
      `Qdrant is not reachable at ${url} (${operation}: ${network ?? 'timed out'})`,
      {
        cause: error,
        hint: 'start a server (`docker run -p 6333:6333 qdrant/qdrant`) or fix the url option / QDRANT_URL; recall uses the file index meanwhile',
        details: { ...details, reason: network ?? 'timeout' },
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryBackendError(
    'BACKEND_UNAVAILABLE',
    'qdrant',
    `Qdrant ${operation} failed: ${message}`,
    {
      cause: error,
      details,
    },
  );
}

/** Whether a Qdrant failure falls back to the file index: anything but the caller's bad input. */
export function canFallBack(error: unknown): boolean {
  return !(CairnError.isInstance(error) && error.code === 'INVALID_INPUT' && !error.details.status);
}
