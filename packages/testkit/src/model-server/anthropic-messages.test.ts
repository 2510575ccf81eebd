import { afterEach, describe, expect, it } from 'vitest';
import type { ModelServer, ModelServerScript } from './model-server-types';
import { type Json, postJson, postStream, readJson } from './sse-test-client';
import { startModelServer } from './start-model-server';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script?: ModelServerScript): Promise<string> {
  server = await startModelServer(script);
  return `${server.url}/v1/messages`;
}

const recallTool = {
  name: 'mcp__cairn__recall',
  description: 'Recall memory',
  input_schema: { type: 'object', properties: { query: { type: 'string' } } },
};

function request(extra: Record<string, unknown> = {}) {
  return {
    model: 'claude-test',
    max_tokens: 1024,
    system: [{ type: 'text', text: 'You are Claude Code.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What do you remember?' }] }],
    ...extra,
  };
}

type Event = { event?: string; data: Json };

describe('Anthropic Messages', () => {
  it('streams a text answer as the full event sequence', async () => {
    const url = await start({ text: 'Here is the scripted answer for you.' });
    const { contentType, events } = await postStream(`${url}?beta=true`, request({ stream: true }));
    expect(contentType).toMatch(/^text\/event-stream/);
    const typed = events as Event[];
    const names = typed.map((e) => e.event);
    expect(names[0]).toBe('message_start');
    expect(names.slice(-4)).toEqual([
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(names).toContain('content_block_start');
    for (const e of typed) expect(e.data.type).toBe(e.event);
    const opening = typed[0]!.data.message;
    expect(opening).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-test' });
    expect(opening.content).toEqual([]);
    expect(opening.usage.input_tokens).toBeGreaterThan(0);
    const blockStart = typed.find((e) => e.event === 'content_block_start')!.data;
    expect(blockStart.content_block).toEqual({ type: 'text', text: '' });
    const deltas = typed.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((d) => d.type === 'text_delta')).toBe(true);
    expect(deltas.map((d) => d.text).join('')).toBe('Here is the scripted answer for you.');
    const messageDelta = typed.find((e) => e.event === 'message_delta')!.data;
    expect(messageDelta.delta.stop_reason).toBe('end_turn');
    expect(messageDelta.usage.output_tokens).toBeGreaterThan(0);
    expect(server!.requests[0]).toMatchObject({
      api: 'anthropic-messages',
      path: '/v1/messages',
      stream: true,
    });
  });

  it('streams a tool_use block with input_json_delta, then answers text once the result is in', async () => {
    const url = await start({ toolCalls: [{ tool: /recall$/, input: { query: 'auth flow' } }] });
    const first = (await postStream(url, request({ stream: true, tools: [recallTool] })))
      .events as Event[];
    const blockStart = first.find((e) => e.event === 'content_block_start')!.data.content_block;
    expect(blockStart).toMatchObject({ type: 'tool_use', name: 'mcp__cairn__recall', input: {} });
    expect(blockStart.id).toMatch(/^toolu_/);
    const json = first
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => {
        expect(e.data.delta.type).toBe('input_json_delta');
        return e.data.delta.partial_json as string;
      })
      .join('');
    expect(JSON.parse(json)).toEqual({ query: 'auth flow' });
    const stop = first.find((e) => e.event === 'message_delta')!.data.delta.stop_reason;
    expect(stop).toBe('tool_use');

    const followUp = request({
      stream: true,
      tools: [recallTool],
      messages: [
        ...request().messages,
        { role: 'assistant', content: [{ ...blockStart, input: { query: 'auth flow' } }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: blockStart.id,
              content: [{ type: 'text', text: 'memory: uses JWT' }],
            },
          ],
        },
      ],
    });
    const second = (await postStream(url, followUp)).events as Event[];
    const text = second
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => e.data.delta.text)
      .join('');
    expect(text).toBe('OK.');
    expect(server!.requestsContaining('memory: uses JWT')).toHaveLength(1);
  });

  it('answers a non-streamed request with a message object', async () => {
    const url = await start({ toolCalls: [{ tool: /recall/, input: { query: 'x' } }] });
    const text = await readJson(await postJson(url, request()));
    expect(text).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'OK.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(text.id).toMatch(/^msg_/);
    const tool = await readJson(await postJson(url, request({ tools: [recallTool] })));
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content[0]).toMatchObject({ type: 'tool_use', input: { query: 'x' } });
    expect(tool.usage.output_tokens).toBeGreaterThan(0);
  });

  it('counts tokens and lists models', async () => {
    const url = await start();
    const counted = await readJson(await postJson(`${url}/count_tokens`, request()));
    expect(counted.input_tokens).toBeGreaterThan(0);
    const models = await readJson(await fetch(`${server!.url}/v1/models`));
    expect(models.data[0]).toMatchObject({ type: 'model', object: 'model' });
    expect(models.has_more).toBe(false);
    expect(server!.requests.map((r) => [r.api, r.method, r.path])).toEqual([
      ['other', 'POST', '/v1/messages/count_tokens'],
      ['other', 'GET', '/v1/models'],
    ]);
    expect(server!.requests[0]!.text).toContain('What do you remember?');
  });

  it('rejects a body without messages with an Anthropic error and records it', async () => {
    const url = await start();
    const response = await postJson(url, { model: 'x' });
    expect(response.status).toBe(400);
    expect(await readJson(response)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    expect(server!.requests).toHaveLength(1);
  });
});
