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
  return `${server.url}/v1/chat/completions`;
}

const recallTool = {
  type: 'function',
  function: { name: 'cairn_recall', parameters: { type: 'object', properties: {} } },
};

function request(extra: Record<string, unknown> = {}) {
  return {
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'You are OpenCode.' },
      { role: 'user', content: [{ type: 'text', text: 'Recall the plan.' }] },
    ],
    ...extra,
  };
}

type Chunk = Json;

describe('OpenAI Chat Completions', () => {
  it('streams text chunks, a stop chunk, a usage chunk and [DONE]', async () => {
    const url = await start({ text: 'The plan is to ship on Friday.' });
    const { contentType, events } = await postStream(
      url,
      request({ stream: true, stream_options: { include_usage: true } }),
    );
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(events.every((e) => e.event === undefined)).toBe(true);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => e.data as Chunk);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: 'gpt-test' });
    }
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.total_tokens).toBe(
      usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens,
    );
    const choices = chunks.slice(0, -1).map((c) => c.choices[0]);
    expect(choices[0].delta.role).toBe('assistant');
    expect(choices.map((c) => c.delta.content ?? '').join('')).toBe(
      'The plan is to ship on Friday.',
    );
    expect(choices.at(-1).finish_reason).toBe('stop');
    expect(choices.slice(0, -1).every((c) => c.finish_reason === null)).toBe(true);
  });

  it('sends no usage chunk unless include_usage is set', async () => {
    const url = await start();
    const { events } = await postStream(url, request({ stream: true }));
    const chunks = events.slice(0, -1).map((e) => e.data as Chunk);
    expect(chunks.every((c) => c.usage === undefined && c.choices.length === 1)).toBe(true);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop');
  });

  it('streams a tool call with id, name and argument deltas, once per conversation', async () => {
    const url = await start({
      toolCalls: [{ tool: /recall/, input: { query: 'plan', limit: 3 } }],
    });
    const { events } = await postStream(url, request({ stream: true, tools: [recallTool] }));
    const deltas = events.slice(0, -1).map((e) => (e.data as Chunk).choices[0]);
    const head = deltas[0].delta.tool_calls[0];
    expect(head).toMatchObject({ index: 0, type: 'function', function: { name: 'cairn_recall' } });
    expect(head.id).toMatch(/^call_/);
    const args = deltas
      .flatMap((d) => d.delta.tool_calls ?? [])
      .map((call: Chunk) => call.function.arguments)
      .join('');
    expect(JSON.parse(args)).toEqual({ query: 'plan', limit: 3 });
    expect(deltas.at(-1).finish_reason).toBe('tool_calls');

    const followUp = request({
      tools: [recallTool],
      messages: [
        ...request().messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: head.id, type: 'function', function: { name: 'cairn_recall', arguments: args } },
          ],
        },
        { role: 'tool', tool_call_id: head.id, content: 'plan: ship Friday' },
      ],
    });
    const answer = await readJson(await postJson(url, followUp));
    expect(answer.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'OK.' },
      finish_reason: 'stop',
    });
    expect(server!.requestsContaining('plan: ship Friday')).toHaveLength(1);
  });

  it('answers non-streamed requests with a chat.completion', async () => {
    const url = await start({ toolCalls: [{ tool: /^cairn_recall$/, input: { query: 'q' } }] });
    const answer = await readJson(await postJson(url, request({ tools: [recallTool] })));
    expect(answer).toMatchObject({ object: 'chat.completion', model: 'gpt-test' });
    const choice = answer.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls[0]).toMatchObject({
      type: 'function',
      function: { name: 'cairn_recall', arguments: '{"query":"q"}' },
    });
    expect(answer.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('accepts a base URL without /v1 and records system and user text', async () => {
    await start();
    const response = await postJson(`${server!.url}/chat/completions`, request());
    expect(response.status).toBe(200);
    const [recorded] = server!.requests;
    expect(recorded).toMatchObject({ api: 'openai-chat', path: '/chat/completions' });
    expect(recorded!.text).toContain('You are OpenCode.');
    expect(recorded!.text).toContain('Recall the plan.');
    const models = await readJson(await fetch(`${server!.url}/v1/models`));
    expect(models).toMatchObject({ object: 'list', data: [{ object: 'model' }] });
  });
});
