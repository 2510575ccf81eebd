import { CairnError } from '@cairn/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatTestServer,
  closedBaseUrl,
  type RecordedRequest,
  startChatServer,
} from '../summaries/chat-server.fixture';
import { createOpenAiEmbedder } from './openai-embedder';

let server: ChatTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A vector of `dims` numbers derived from the text, so a test can tell which text it belongs to. */
function vectorFor(text: string, dims: number): number[] {
  return Array.from({ length: dims }, (_, i) => (text.length + i) % 7);
}

/** An /v1/embeddings reply, its items in reverse order (the index field decides). */
function embeddings(request: RecordedRequest, dims = 4) {
  const input = request.body.input as string[];
  const data = input.map((text, index) => ({ index, embedding: vectorFor(text, dims) })).reverse();
  return { status: 200, body: { object: 'list', data } };
}

async function rejection(promise: Promise<unknown>): Promise<CairnError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(CairnError.isInstance(error)).toBe(true);
  return error as CairnError;
}

describe('openai embedder', () => {
  it('batches texts, keeps their order and sends the key only in the header', async () => {
    server = await startChatServer((request) => embeddings(request));
    const embedder = createOpenAiEmbedder({
      baseUrl: server.baseUrl,
      model: 'nomic-embed-text',
      dimensions: 4,
      apiKey: 'sk-test',
      batchSize: 2,
    });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    expect(await embedder.embed(texts)).toEqual(texts.map((t) => vectorFor(t, 4)));
    expect(server.requests.map((r) => r.body.input)).toEqual([
      ['a', 'bb'],
      ['ccc', 'dddd'],
      ['eeeee'],
    ]);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      headers: { authorization: 'Bearer sk-test' },
      body: { model: 'nomic-embed-text' },
    });
  });

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    server = await startChatServer((request, index) =>
      index === 0
        ? { status: 429, body: { error: 'slow down' } }
        : index === 1
          ? { status: 503, body: 'busy' }
          : embeddings(request),
    );
    const embedder = createOpenAiEmbedder({
      baseUrl: server.baseUrl,
      model: 'm',
      dimensions: 4,
      retryDelayMs: 1,
    });
    expect(await embedder.embed(['x'])).toEqual([vectorFor('x', 4)]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a typed error naming the status', async () => {
    server = await startChatServer(() => ({ status: 500, body: 'boom' }));
    const embedder = createOpenAiEmbedder({
      baseUrl: server.baseUrl,
      model: 'm',
      dimensions: 4,
      maxRetries: 1,
      retryDelayMs: 1,
    });
    const error = await rejection(embedder.embed(['x']));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.details).toMatchObject({ status: 500, body: 'boom' });
    expect(server.requests).toHaveLength(2);
  });

  it('times out a server that never answers', async () => {
    server = await startChatServer(() => 'hang');
    const embedder = createOpenAiEmbedder({
      baseUrl: server.baseUrl,
      model: 'm',
      dimensions: 4,
      timeoutMs: 100,
      maxRetries: 0,
    });
    const error = await rejection(embedder.embed(['x']));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.message).toMatch(/timed out/);
  });

  it('rejects vectors of another size with a typed error and a hint', async () => {
    server = await startChatServer((request) => embeddings(request, 3));
    const embedder = createOpenAiEmbedder({ baseUrl: server.baseUrl, model: 'm', dimensions: 4 });
    const error = await rejection(embedder.embed(['x']));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.details).toMatchObject({ expected: 4, got: 3 });
    expect(error.hint).toMatch(/embedder.dimensions to 3/);
  });

  it('reports an unreachable server, and bad options before any request', async () => {
    const baseUrl = await closedBaseUrl();
    const embedder = createOpenAiEmbedder({ baseUrl, model: 'm', dimensions: 4, maxRetries: 0 });
    expect((await rejection(embedder.embed(['x']))).message).toMatch(/unreachable/);
    expect(() => createOpenAiEmbedder({ baseUrl: 'ftp://x', model: 'm', dimensions: 4 })).toThrow(
      /embedder option "baseUrl"/,
    );
  });
});
