/** Test helpers: plain fetch against the server and a small SSE parser. */

export interface SseEvent {
  /** The `event:` field, if the server named the event. */
  event?: string;
  /** The `data:` field (lines joined with newlines). */
  data: string;
}

/** Parses a complete `text/event-stream` body into events (per the WHATWG rules we rely on). */
export function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) events.push({ ...(event ? { event } : {}), data: data.join('\n') });
  }
  return events;
}

/** Parsed JSON for assertions: tests walk into answers freely. */
// biome-ignore lint/suspicious/noExplicitAny: assertions index arbitrary JSON answers
export type Json = any;

export async function readJson(response: Response): Promise<Json> {
  return response.json();
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Posts a streaming request and returns its events with `data` parsed as JSON where it is. */
export async function postStream(
  url: string,
  body: unknown,
): Promise<{ contentType: string | null; events: { event?: string; data: Json }[] }> {
  const response = await postJson(url, body);
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text}`);
  const events = parseSse(text).map(({ event, data }) => {
    let parsed: Json = data;
    try {
      parsed = JSON.parse(data);
    } catch {
      // `[DONE]` and other non-JSON sentinels stay strings.
    }
    return { ...(event ? { event } : {}), data: parsed };
  });
  return { contentType: response.headers.get('content-type'), events };
}
