import type { ServerResponse } from 'node:http';
import { estimateTokens } from '@cairn/core';

/** Sends a JSON body with the given status. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** Starts a `text/event-stream` answer. */
export function openEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/**
 * Writes one SSE event. Anthropic and Responses name every event (`event:`
 * line); Chat Completions sends bare `data:` lines, so `event` is optional.
 */
export function writeEvent(res: ServerResponse, event: string | undefined, data: unknown): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
}

/**
 * Splits text into a few deltas at word boundaries, so clients must really
 * accumulate a stream instead of getting lucky with one chunk.
 */
export function splitIntoDeltas(text: string, pieces = 3): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  if (words.length <= 1) return [text];
  const size = Math.ceil(words.length / pieces);
  const deltas: string[] = [];
  for (let start = 0; start < words.length; start += size) {
    deltas.push(words.slice(start, start + size).join(''));
  }
  return deltas;
}

/** A plausible token count for usage fields (never zero, which some clients treat as missing). */
export function countTokens(text: string): number {
  return Math.max(1, estimateTokens(text));
}

/** Seconds since the epoch, as OpenAI's `created` fields use. */
export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A tool input as JSON text in two deltas, as real models stream arguments in pieces. */
export function splitArguments(input: Record<string, unknown>): string[] {
  const json = JSON.stringify(input);
  const half = Math.ceil(json.length / 2);
  return [json.slice(0, half), json.slice(half)].filter((part) => part.length > 0);
}
