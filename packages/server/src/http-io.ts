import type { IncomingMessage, ServerResponse } from 'node:http';
import { CairnError, type CairnErrorCode } from '@cairn/core';

/** The largest request body the dashboard reads: a whole MEMORY.md fits, a flood does not. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Headers of every answer. The CSP allows the bundled script and style
 * only (no inline script, no other origin); no `Access-Control-Allow-Origin`
 * is ever sent, so no other page can read an answer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** HTTP status of each error code: the body always carries the code itself. */
const STATUS: Record<CairnErrorCode, number> = {
  INVALID_INPUT: 400,
  INVALID_PATH: 400,
  INVALID_CONFIG: 400,
  NOT_FOUND: 404,
  READ_ONLY: 403,
  CONFLICT: 409,
  QUOTA_EXCEEDED: 413,
  UNSUPPORTED: 501,
  BACKEND_UNAVAILABLE: 503,
  READ_FAILED: 500,
  WRITE_FAILED: 500,
  INTERNAL: 500,
};

export function statusOfCode(code: CairnErrorCode): number {
  return STATUS[code] ?? 500;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** The body of an error answer: `{ ok: false, error: { code, message, hint?, details } }`. */
export function errorBody(error: CairnError) {
  return { ok: false, error: error.toJSON() };
}

/**
 * Answers with a typed error. A CairnError keeps its code and message; any
 * other error is INTERNAL with a generic message (its text may hold paths
 * or data the page has no business seeing), and goes to `onInternal`.
 */
export function sendError(
  res: ServerResponse,
  error: unknown,
  onInternal: (error: unknown) => void = () => undefined,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (CairnError.isInstance(error)) {
    sendJson(res, statusOfCode(error.code), errorBody(error));
    return;
  }
  onInternal(error);
  const internal = new CairnError('INTERNAL', 'The dashboard server failed on this request', {
    hint: 'see the terminal running `cairn ui` for the cause, then try again',
  });
  sendJson(res, 500, errorBody(internal));
}

/**
 * Reads a JSON body of at most `maxBytes`: a larger body is refused with
 * 413 before it is all read, a body that is not JSON (or not sent as
 * `application/json`) with INVALID_INPUT.
 */
export async function readJsonBody(
  req: IncomingMessage,
  maxBytes = MAX_BODY_BYTES,
): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new CairnError('INVALID_INPUT', 'The request body must be JSON', {
      hint: 'send it with Content-Type: application/json; nothing was changed',
    });
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (cause) {
    throw new CairnError('INVALID_INPUT', 'The request body is not valid JSON', {
      cause,
      hint: 'send a JSON object; nothing was changed',
    });
  }
}

function tooLarge(maxBytes: number): CairnError {
  return new CairnError('QUOTA_EXCEEDED', `The request body is over ${maxBytes} bytes`, {
    hint: 'send a smaller body (split a large file edit); nothing was changed',
    details: { maxBytes },
  });
}
