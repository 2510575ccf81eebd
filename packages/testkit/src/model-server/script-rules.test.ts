import { afterEach, describe, expect, it } from 'vitest';
import { expectCode } from '../expect-code';
import { DEFAULT_COMPACTION_SUMMARY, isCompactionRequest } from './compaction-request';
import type { ModelServer, ModelServerScript } from './model-server-types';
import { postJson, readJson } from './sse-test-client';
import { startModelServer } from './start-model-server';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script?: ModelServerScript): Promise<ModelServer> {
  server = await startModelServer(script);
  return server;
}

const tool = (name: string) => ({ name, input_schema: { type: 'object' } });

/** One non-streamed Anthropic turn; returns the content block the model sent. */
async function turn(messages: unknown[], tools: string[], system = 'You are a coding agent.') {
  const body = { model: 'm', max_tokens: 64, system, messages, tools: tools.map(tool) };
  const answer = await readJson(await postJson(`${server!.url}/v1/messages`, body));
  return answer.content[0] as { type: string; id?: string; name?: string; text?: string };
}

const ask = { role: 'user', content: 'Please help.' };

function resultFor(block: { id?: string; name?: string }, withCall = true) {
  return [
    ...(withCall
      ? [
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: block.id, name: block.name, input: {} }],
          },
        ]
      : []),
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content: 'done' }] },
  ];
}

describe('compaction detection', () => {
  const cases: [string, { systemText: string; lastUserText: string }][] = [
    [
      'Claude Code system',
      {
        systemText: 'You are a helpful AI assistant tasked with summarizing conversations.',
        lastUserText: '',
      },
    ],
    [
      'Claude Code prompt',
      {
        systemText: 'You are Claude Code.',
        lastUserText:
          'CRITICAL: Respond with TEXT ONLY. Your task is to create a detailed summary of the conversation so far.',
      },
    ],
    [
      'Codex prompt',
      {
        systemText: '',
        lastUserText:
          'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary.',
      },
    ],
    [
      'OpenCode system',
      {
        systemText: 'You are a context summarization agent. You are given a conversation',
        lastUserText: '',
      },
    ],
    [
      'OpenCode prompt',
      {
        systemText: '',
        lastUserText: 'Create a new anchored summary from the conversation history',
      },
    ],
    [
      'OpenClaw prompt',
      {
        systemText: '',
        lastUserText:
          '<conversation>…</conversation>\n\nThe messages above are a conversation to summarize. Create a structured context checkpoint summary',
      },
    ],
    [
      'OpenClaw split-turn prompt',
      {
        systemText: '',
        lastUserText:
          'This is the PREFIX of a turn that was too large to keep. The SUFFIX is retained.',
      },
    ],
    [
      'OpenClaw system',
      {
        systemText:
          'You are a context summarization assistant. Your task is to read a conversation',
        lastUserText: '',
      },
    ],
    [
      'plain request',
      { systemText: '', lastUserText: 'Please summarize the conversation so far.' },
    ],
  ];
  it.each(cases)('recognises %s', (_name, request) => {
    expect(isCompactionRequest(request)).toBe(true);
  });

  it('ignores ordinary turns, titles, PR summaries and a summary travelling in history', () => {
    for (const lastUserText of [
      'Fix the failing test.',
      'Generate a title for this conversation.',
      'Summarize what was done in this conversation. Write like a pull request description.',
    ]) {
      expect(isCompactionRequest({ systemText: 'You are a coding agent.', lastUserText })).toBe(
        false,
      );
    }
    expect(
      isCompactionRequest({
        systemText: 'This session is being continued from a previous conversation. Summary: …',
        lastUserText: 'Carry on.',
      }),
    ).toBe(false);
  });
});

describe('scripting rules', () => {
  it('answers compaction with the summary even when a tool rule would match', async () => {
    await start({ toolCalls: [{ tool: /recall/, input: {} }], compactionSummary: 'Compacted: X.' });
    const compactPrompt = {
      role: 'user',
      content: 'Your task is to create a detailed summary of the conversation so far.',
    };
    expect(await turn([ask, compactPrompt], ['recall'])).toEqual({
      type: 'text',
      text: 'Compacted: X.',
    });
    const chat = await postJson(`${server!.url}/v1/chat/completions`, {
      model: 'm',
      messages: [{ role: 'system', content: 'You are a context summarization assistant.' }, ask],
    });
    expect((await readJson(chat)).choices[0].message.content).toBe('Compacted: X.');
  });

  it('uses a default summary and default text', async () => {
    await start();
    const compact = { role: 'user', content: 'Summarise our conversation, please.' };
    expect((await turn([compact], [])).text).toBe(DEFAULT_COMPACTION_SUMMARY);
    expect((await turn([ask], [])).text).toBe('OK.');
  });

  it('fires the first matching rule for an offered tool, once per conversation', async () => {
    await start({
      toolCalls: [
        { tool: /^absent$/, input: {} },
        { tool: /remember/, input: { text: 'a' } },
        { tool: /recall/, input: { query: 'b' } },
      ],
      text: 'All done.',
    });
    const tools = ['Read', 'mcp__cairn__recall', 'mcp__cairn__remember'];
    const first = await turn([ask], tools);
    expect(first).toMatchObject({ type: 'tool_use', name: 'mcp__cairn__remember' });
    const second = await turn([ask, ...resultFor(first)], tools);
    expect(second).toMatchObject({ type: 'tool_use', name: 'mcp__cairn__recall' });
    const third = await turn([ask, ...resultFor(first), ...resultFor(second)], tools);
    expect(third).toEqual({ type: 'text', text: 'All done.' });
    // A new conversation starts over.
    expect((await turn([ask], tools)).name).toBe('mcp__cairn__remember');
  });

  it('scripts one tool twice with afterResults: a command, an edit, the command again', async () => {
    await start({
      toolCalls: [
        { tool: /^Bash$/, input: { command: 'node main.js' }, afterResults: 0 },
        { tool: /^Write$/, input: { file_path: 'lib.js' }, afterResults: 1 },
        { tool: /^Bash$/, input: { command: 'node main.js --again' }, afterResults: 2 },
      ],
      text: 'Fixed.',
    });
    const tools = ['Bash', 'Write'];
    const run = await turn([ask], tools);
    expect(run).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const edit = await turn([ask, ...resultFor(run)], tools);
    expect(edit).toMatchObject({ type: 'tool_use', name: 'Write' });
    const again = await turn([ask, ...resultFor(run), ...resultFor(edit)], tools);
    expect(again).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const done = await turn(
      [ask, ...resultFor(run), ...resultFor(edit), ...resultFor(again)],
      tools,
    );
    expect(done).toEqual({ type: 'text', text: 'Fixed.' });
  });

  it('counts a result for one of its own calls even when the client does not echo the call', async () => {
    await start({ toolCalls: [{ tool: /recall/, input: {} }] });
    const call = await turn([ask], ['recall']);
    expect(call.type).toBe('tool_use');
    expect((await turn([ask, ...resultFor(call, false)], ['recall'])).text).toBe('OK.');
  });

  it('gives every tool call a unique id', async () => {
    await start({ toolCalls: [{ tool: /recall/, input: {} }] });
    const ids = new Set<string | undefined>();
    for (let i = 0; i < 20; i += 1) ids.add((await turn([ask], ['recall'])).id);
    expect(ids.size).toBe(20);
    const other = await startModelServer({ toolCalls: [{ tool: /recall/, input: {} }] });
    const body = { model: 'm', max_tokens: 8, messages: [ask], tools: [tool('recall')] };
    const answer = await readJson(await postJson(`${other.url}/v1/messages`, body));
    await other.close();
    expect(ids.has(answer.content[0].id)).toBe(false);
  });

  it('passes the recorded request to a text function', async () => {
    await start({
      text: (request) => `seen ${request.api}: ${request.text.includes('Please help.')}`,
    });
    expect((await turn([ask], [])).text).toBe('seen anthropic-messages: true');
  });

  it('answers 500 when the text function throws, and keeps serving', async () => {
    let calls = 0;
    await start({
      text: () => {
        calls += 1;
        if (calls === 1) throw new Error('script bug');
        return 'fine';
      },
    });
    const body = { model: 'm', max_tokens: 8, messages: [ask] };
    const failed = await postJson(`${server!.url}/v1/messages`, body);
    expect(failed.status).toBe(500);
    expect((await readJson(failed)).error.message).toContain('script bug');
    expect((await turn([ask], [])).text).toBe('fine');
  });

  it('rejects a malformed script with INVALID_INPUT before listening', async () => {
    const bad = [
      { toolCalls: [{ tool: 'recall', input: {} }] },
      { toolCalls: [{ tool: /recall/ }] },
      { toolCalls: {} },
      { text: 42 },
      { compactionSummary: ['x'] },
      'text',
    ];
    for (const script of bad) {
      const error = await expectCode(
        startModelServer(script as unknown as ModelServerScript),
        'INVALID_INPUT',
      );
      expect(error.hint).toContain('toolCalls');
    }
  });
});
