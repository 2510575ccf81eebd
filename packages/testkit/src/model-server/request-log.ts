import type { IncomingMessage } from 'node:http';
import type { ModelApi, RecordedModelRequest } from './model-server-types';

/** Parses a body as JSON when it is JSON; keeps the raw text otherwise. */
export function decodeBody(raw: string): { body: unknown; json: boolean } {
  if (raw.length === 0) return { body: undefined, json: false };
  try {
    return { body: JSON.parse(raw) as unknown, json: true };
  } catch {
    return { body: raw, json: false };
  }
}

/** Every request the server saw, in arrival order, for tests to assert on. */
export class RequestLog {
  readonly requests: RecordedModelRequest[] = [];

  record(
    req: IncomingMessage,
    entry: { api: ModelApi; path: string; body: unknown; text: string; stream: boolean },
  ): RecordedModelRequest {
    const recorded: RecordedModelRequest = {
      ...entry,
      method: req.method ?? 'GET',
      headers: { ...req.headers },
      at: Date.now(),
    };
    this.requests.push(recorded);
    return recorded;
  }

  containing(needle: string): RecordedModelRequest[] {
    return this.requests.filter((request) => request.text.includes(needle));
  }
}
