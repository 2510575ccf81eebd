import { CairnError } from '@cairn/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatTestServer,
  completion,
  type RecordedRequest,
  type Reply,
  startChatServer,
} from './chat-server.fixture';
import {
  chatCompletionsUrl,
  createOpenAiSummarizer,
  type OpenAiSummarizerOptions,
} from './openai-summarizer';
import { fixtureTranscript } from './transcript.fixture';

const servers: ChatTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(respond: (request: RecordedRequest, index: number) => Reply) {
  const server = await startChatServer(respond);
  servers.push(server);
  return server;
}

function summarizerFor(baseUrl: string, options: Partial<OpenAiSummarizerOptions> = {}) {
  return createOpenAiSummarizer({ baseUrl, model: 'test-model', retryDelayMs: 1, ...options });
}

const request = { transcript: fixtureTranscript, threadKey: 'repo:main', previous: 'Earlier: X.' };

async function failure(promise: Promise<unknown>): Promise<CairnError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!CairnError.isInstance(error)) throw new Error(`expected a CairnError, got ${error}`);
  return error;
}

const jsonReply = {
  text: '## Status\nRetries work.',
  status: 'Retries work; docs pending.',
  decisions: ['Exponential backoff'],
  commitments: [],
  blockers: 'Docker is missing',
  nextSteps: ['Document maxRetries'],
  files: ['src/sync/client.ts'],
  commands: ['pnpm vitest run src/sync'],
};

describe('createOpenAiSummarizer', () => {
  it('posts a JSON-mode chat completion request and parses the JSON reply', async () => {
    const { baseUrl, requests } = await serve(() => completion(JSON.stringify(jsonReply)));
    const summary = await summarizerFor(`${baseUrl}/`).summarize(request);
    expect(summary).toEqual({
      text: '## Status\nRetries work.',
      status: 'Retries work; docs pending.',
      decisions: ['Exponential backoff'],
      commitments: [],
      blockers: ['Docker is missing'],
      nextSteps: ['Document maxRetries'],
      files: ['src/sync/client.ts'],
      commands: ['pnpm vitest run src/sync'],
      source: 'openai:test-model',
    });
    expect(requests).toHaveLength(1);
    const [sent] = requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toMatchObject({
      model: 'test-model',
      response_format: { type: 'json_object' },
      stream: false,
    });
    const messages = sent?.body.messages as Array<{ role: string; content: string }>;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toContain('"nextSteps"');
    expect(messages[0]?.content).toContain('at most 2000 characters');
    expect(messages[1]?.content).toContain('Thread: repo:main');
    expect(messages[1]?.content).toContain('Previous summary:\nEarlier: X.');
    expect(messages[1]?.content).toContain('[tool Bash] {"command":"pnpm vitest run src/sync"');
    expect(messages[1]?.content).not.toContain('never push to main');
  });

  it('sends the API key as a bearer token only when one is given', async () => {
    const { baseUrl, requests } = await serve(() => completion(JSON.stringify(jsonReply)));
    await summarizerFor(baseUrl, { apiKey: 'sk-test-123' }).summarize(request);
    await summarizerFor(baseUrl, { apiKey: '' }).summarize(request);
    expect(requests.map((sent) => sent.headers.authorization)).toEqual([
      'Bearer sk-test-123',
      undefined,
    ]);
  });

  it('keeps the latest transcript entries within the character budget', async () => {
    const { baseUrl, requests } = await serve(() => completion(JSON.stringify(jsonReply)));
    const transcript = Array.from({ length: 100 }, (_, index) => ({
      role: 'user' as const,
      text: `message ${index} ${'x'.repeat(80)}`,
    }));
    await summarizerFor(baseUrl, { transcriptBudgetChars: 1000 }).summarize({ transcript });
    const messages = requests[0]!.body.messages as Array<{ content: string }>;
    const user = messages[1]!.content;
    expect(user).toContain('message 99 ');
    expect(user).not.toContain('message 80 ');
    expect(user).toMatch(/the latest \d+ entries; \d+ older ones omitted/);
  });

  it.each([
    ['a ```json fence', `Here it is:\n\`\`\`json\n${JSON.stringify(jsonReply)}\n\`\`\``],
    ['reasoning before the JSON', `<think>{not this}</think>\n${JSON.stringify(jsonReply)}`],
  ])('parses JSON inside %s', async (_, content) => {
    const { baseUrl } = await serve(() => completion(content));
    const summary = await summarizerFor(baseUrl).summarize(request);
    expect(summary.decisions).toEqual(['Exponential backoff']);
    expect(summary.status).toBe('Retries work; docs pending.');
  });

  it('renders text from the lists when the model leaves it out', async () => {
    const { baseUrl } = await serve(() => completion('{"decisions":["Keep tsup"]}'));
    const summary = await summarizerFor(baseUrl).summarize(request);
    expect(summary.text).toBe('## Decisions\n- Keep tsup');
  });

  it('keeps non-JSON content as the text, with empty lists', async () => {
    const prose = 'The agent added retries.\nDocs are still pending.';
    const { baseUrl } = await serve(() => completion(prose));
    const summary = await summarizerFor(baseUrl).summarize({ ...request, maxChars: 200 });
    expect(summary).toEqual({
      text: prose,
      decisions: [],
      commitments: [],
      blockers: [],
      nextSteps: [],
      files: [],
      commands: [],
      source: 'openai:test-model',
    });
    const { baseUrl: other } = await serve((_, index) =>
      completion(index === 0 ? 'x'.repeat(500) : '<think>Plan it.</think>\nPlain summary.'),
    );
    const long = await summarizerFor(other).summarize({ ...request, maxChars: 200 });
    expect(long.text).toHaveLength(200);
    expect((await summarizerFor(other).summarize(request)).text).toBe('Plain summary.');
  });

  it('retries a 500 and succeeds on the next attempt', async () => {
    const { baseUrl, requests } = await serve((_, index) =>
      index === 0 ? { status: 500, body: { error: 'boom' } } : completion('{"status":"ok"}'),
    );
    const summary = await summarizerFor(baseUrl).summarize(request);
    expect(summary.status).toBe('ok');
    expect(requests).toHaveLength(2);
  });

  it('gives up after maxRetries on 429 and 5xx', async () => {
    const { baseUrl, requests } = await serve(() => ({ status: 429, body: 'slow down' }));
    const error = await failure(summarizerFor(baseUrl, { maxRetries: 2 }).summarize(request));
    expect(requests).toHaveLength(3);
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.details).toMatchObject({ status: 429, attempt: 3 });
    expect(error.hint).toContain('after 3 attempt(s)');
  });

  it('does not retry a 400, and names the URL in the hint', async () => {
    const { baseUrl, requests } = await serve(() => ({
      status: 400,
      body: { error: 'unknown model' },
    }));
    const error = await failure(summarizerFor(baseUrl).summarize(request));
    expect(requests).toHaveLength(1);
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.details).toMatchObject({ status: 400, body: '{"error":"unknown model"}' });
    expect(error.hint).toContain(`${baseUrl}/chat/completions`);
  });

  it('drops response_format once when the server rejects it (LM Studio)', async () => {
    const { baseUrl, requests } = await serve((sent) =>
      sent.body.response_format
        ? { status: 400, body: { error: "'response_format.type' must be 'json_schema'" } }
        : completion('{"status":"plain mode"}'),
    );
    const summarizer = summarizerFor(baseUrl);
    expect((await summarizer.summarize(request)).status).toBe('plain mode');
    expect((await summarizer.summarize(request)).status).toBe('plain mode');
    expect(requests.map((sent) => 'response_format' in sent.body)).toEqual([true, false, false]);
  });

  it('times out with BACKEND_UNAVAILABLE', async () => {
    const { baseUrl, requests } = await serve(() => 'hang');
    const error = await failure(summarizerFor(baseUrl, { timeoutMs: 100 }).summarize(request));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.message).toContain('timed out');
    expect(error.hint).toContain('within 100 ms');
    expect(requests).toHaveLength(1);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    const apiKey = 'sk-secret-value-42';
    const { baseUrl } = await serve((sent) => ({
      status: 401,
      body: { error: `bad key ${String(sent.headers.authorization)}` },
    }));
    const error = await failure(summarizerFor(baseUrl, { apiKey }).summarize(request));
    expect(error.hint).toContain('check the API key');
    expect(JSON.stringify(error.toJSON())).not.toContain(apiKey);
    expect(error.message).not.toContain(apiKey);
  });

  it('fails when the reply has no message content', async () => {
    const { baseUrl } = await serve(() => completion(null));
    const error = await failure(summarizerFor(baseUrl).summarize(request));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.hint).toContain('choices[0].message.content');
  });

  it('validates its options with INVALID_CONFIG', () => {
    expect(() => createOpenAiSummarizer({ baseUrl: 'localhost:11434', model: 'm' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
    expect(() => createOpenAiSummarizer({ baseUrl: 'http://h/v1', model: ' ' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });

  it('builds the endpoint URL with or without a trailing slash', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:11434/v1')).toBe(
      'http://127.0.0.1:11434/v1/chat/completions',
    );
    expect(chatCompletionsUrl('https://api.openai.com/v1/')).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
    expect(chatCompletionsUrl('http://h/v1/chat/completions')).toBe('http://h/v1/chat/completions');
  });
});
