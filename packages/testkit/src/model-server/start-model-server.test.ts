import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelServer } from './model-server-types';
import { postJson, readJson } from './sse-test-client';
import { routeOf, startModelServer } from './start-model-server';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('recording', () => {
  it('records every request with api, method, path, headers, body, text, stream and time', async () => {
    server = await startModelServer();
    const before = Date.now();
    const body = {
      model: 'm',
      system: 'SYSTEM-PROMPT',
      messages: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
        { role: 'user', content: [{ type: 'text', text: '<memory>INJECTED-42</memory>' }] },
      ],
    };
    await postJson(`${server.url}/v1/messages?beta=true`, body, { 'x-api-key': 'dummy' });
    await postJson(`${server.url}/v1/responses`, { model: 'm', input: 'codex says hi' });
    const [anthropic, responses] = server.requests;
    expect(anthropic).toMatchObject({
      api: 'anthropic-messages',
      method: 'POST',
      path: '/v1/messages',
      body,
      stream: false,
    });
    expect(anthropic!.headers['x-api-key']).toBe('dummy');
    expect(anthropic!.at).toBeGreaterThanOrEqual(before);
    expect(responses!.at).toBeGreaterThanOrEqual(anthropic!.at);
    expect(anthropic!.text.split('\n')).toEqual([
      'SYSTEM-PROMPT',
      'first question',
      'first answer',
      '<memory>INJECTED-42</memory>',
    ]);
    expect(server.requestsContaining('INJECTED-42')).toEqual([anthropic]);
    expect(server.requestsContaining('codex says hi')).toEqual([responses]);
    expect(server.requestsContaining('nowhere')).toEqual([]);
  });

  it('records developer messages and instructions of the OpenAI APIs', async () => {
    server = await startModelServer();
    await postJson(`${server.url}/v1/chat/completions`, {
      model: 'm',
      messages: [
        { role: 'developer', content: 'DEV-CONTEXT' },
        { role: 'user', content: 'hi' },
      ],
    });
    await postJson(`${server.url}/v1/responses`, {
      model: 'm',
      instructions: 'INSTRUCTIONS',
      input: [{ role: 'developer', content: 'RESP-DEV' }],
    });
    expect(server.requestsContaining('DEV-CONTEXT')).toHaveLength(1);
    expect(server.requests[1]!.text).toBe('INSTRUCTIONS\nRESP-DEV');
  });

  it('answers unknown paths with a 404 JSON and bad JSON with a 400, recording both', async () => {
    server = await startModelServer();
    const missing = await postJson(`${server.url}/v1/embeddings`, { input: 'x' });
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error.type).toBe('not_found_error');
    const broken = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(broken.status).toBe(400);
    expect((await readJson(broken)).error.message).toContain('not JSON');
    const head = await fetch(`${server.url}/`, { method: 'DELETE' });
    expect(head.status).toBe(404);
    expect(server.requests.map((r) => [r.api, r.method, r.path, r.body])).toEqual([
      ['other', 'POST', '/v1/embeddings', { input: 'x' }],
      ['openai-chat', 'POST', '/v1/chat/completions', '{not json'],
      ['other', 'DELETE', '/', undefined],
    ]);
  });

  it('normalises routes with or without /v1 and a trailing slash', () => {
    expect(routeOf('/v1/messages')).toBe('/messages');
    expect(routeOf('/messages/')).toBe('/messages');
    expect(routeOf('/v1/models/claude-x')).toBe('/models/claude-x');
    expect(routeOf('/')).toBe('/');
    expect(routeOf('/v1')).toBe('/v1');
  });
});

describe('close', () => {
  it('ends open connections, frees the port and can be called twice', async () => {
    server = await startModelServer();
    const { port, url } = server;
    // A request whose body never finishes keeps its connection busy.
    const hanging = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/messages',
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    hanging.on('error', () => {});
    hanging.write('{"model":');
    await once(hanging, 'socket');
    // The server accepts in order: once a later request is answered, the first is tracked too.
    expect((await fetch(`${url}/v1/models`)).status).toBe(200);
    const socketClosed = once(hanging.socket!, 'close');
    await server.close();
    await socketClosed;
    await server.close();
    await expect(fetch(`${url}/v1/models`)).rejects.toThrow();
    expect(server.requests).toHaveLength(1);
  });
});
