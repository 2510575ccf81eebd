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
  return `${server.url}/v1/responses`;
}

/** Tools the way Codex 0.169 offers them: built-ins plus MCP tools in a namespace. */
const codexTools = [
  { type: 'function', name: 'shell', parameters: { type: 'object', properties: {} } },
  {
    type: 'namespace',
    name: 'mcp__cairn',
    description: 'Tools of the cairn MCP server',
    tools: [{ type: 'function', name: 'recall', parameters: { type: 'object', properties: {} } }],
  },
];

function request(extra: Record<string, unknown> = {}) {
  return {
    model: 'gpt-codex-test',
    instructions: 'You are Codex.',
    input: [
      {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<cairn-memory>use pnpm</cairn-memory>' }],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Build it.' }] },
    ],
    stream: true,
    ...extra,
  };
}

type Event = { event?: string; data: Json };

describe('OpenAI Responses', () => {
  it('streams a text answer as the full event sequence', async () => {
    const url = await start({ text: 'Built with pnpm as remembered.' });
    const events = (await postStream(url, request())).events as Event[];
    const names = events.map((e) => e.event);
    const deltas = names.filter((n) => n === 'response.output_text.delta').length;
    expect(deltas).toBeGreaterThan(1);
    expect(names).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array(deltas).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    events.forEach((e, index) => {
      expect(e.data.type).toBe(e.event);
      expect(e.data.sequence_number).toBe(index);
    });
    const text = events
      .filter((e) => e.event === 'response.output_text.delta')
      .map((e) => e.data.delta)
      .join('');
    expect(text).toBe('Built with pnpm as remembered.');
    const done = events.find((e) => e.event === 'response.output_item.done')!.data.item;
    expect(done).toMatchObject({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Built with pnpm as remembered.' }],
    });
    const completed = events.at(-1)!.data.response;
    expect(completed).toMatchObject({ object: 'response', status: 'completed' });
    expect(completed.id).toBe(events[0]!.data.response.id);
    expect(completed.usage).toMatchObject({
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    });
    expect(completed.usage.total_tokens).toBeGreaterThan(0);
    expect(server!.requests[0]).toMatchObject({ api: 'openai-responses', stream: true });
    expect(server!.requestsContaining('<cairn-memory>use pnpm</cairn-memory>')).toHaveLength(1);
  });

  it('calls a namespaced MCP tool the way Codex offers it, then answers text', async () => {
    const url = await start({
      toolCalls: [{ tool: /^mcp__cairn__recall$/, input: { q: 'deps' } }],
    });
    const events = (await postStream(url, request({ tools: codexTools }))).events as Event[];
    const names = events.map((e) => e.event);
    expect(names.slice(0, 3)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
    ]);
    expect(names.slice(-4)).toEqual([
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const added = events[2]!.data.item;
    expect(added).toMatchObject({ type: 'function_call', arguments: '', status: 'in_progress' });
    const item = events.find((e) => e.event === 'response.output_item.done')!.data.item;
    expect(item).toMatchObject({ type: 'function_call', name: 'recall', namespace: 'mcp__cairn' });
    expect(item.call_id).toMatch(/^call_/);
    const args = events
      .filter((e) => e.event === 'response.function_call_arguments.delta')
      .map((e) => e.data.delta)
      .join('');
    expect(JSON.parse(args)).toEqual({ q: 'deps' });
    expect(JSON.parse(item.arguments)).toEqual({ q: 'deps' });

    const input = [
      ...request().input,
      item,
      { type: 'function_call_output', call_id: item.call_id, output: 'deps: pnpm 10' },
    ];
    const second = (await postStream(url, request({ tools: codexTools, input }))).events as Event[];
    const final = second.find((e) => e.event === 'response.output_item.done')!.data.item;
    expect(final).toMatchObject({ type: 'message', content: [{ text: 'OK.' }] });
    expect(server!.requests[1]!.text).toContain('deps: pnpm 10');
  });

  it('matches a namespaced tool by its bare name too', async () => {
    const url = await start({ toolCalls: [{ tool: /^recall$/, input: {} }] });
    const answer = await readJson(
      await postJson(url, request({ stream: false, tools: codexTools })),
    );
    expect(answer.output[0]).toMatchObject({ name: 'recall', namespace: 'mcp__cairn' });
  });

  it('answers a non-streamed request with a response object', async () => {
    const url = await start({ toolCalls: [{ tool: /^shell$/, input: { command: ['ls'] } }] });
    const answer = await readJson(
      await postJson(url, request({ stream: false, tools: codexTools })),
    );
    expect(answer).toMatchObject({ object: 'response', status: 'completed' });
    expect(answer.output).toHaveLength(1);
    expect(answer.output[0]).toMatchObject({ type: 'function_call', name: 'shell' });
    expect(answer.output[0].namespace).toBeUndefined();
    const plain = await readJson(await postJson(url, { model: 'm', input: 'Hello' }));
    expect(plain.output[0].content[0].text).toBe('OK.');
    expect(server!.requests[1]!.text).toBe('Hello');
  });

  it('rejects a body without input', async () => {
    const url = await start();
    const response = await postJson(url, { model: 'm' });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.type).toBe('invalid_request_error');
  });
});
