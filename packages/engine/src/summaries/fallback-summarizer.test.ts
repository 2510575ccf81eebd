import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatTestServer,
  closedBaseUrl,
  completion,
  startChatServer,
} from './chat-server.fixture';
import { createExtractiveSummarizer } from './extractive-summarizer';
import { createFallbackSummarizer } from './fallback-summarizer';
import { createOpenAiSummarizer } from './openai-summarizer';
import { summarizerFromSettings } from './summarizer-from-settings';
import type { Summarizer } from './summary-types';
import { fixtureTranscript } from './transcript.fixture';

const request = { transcript: fixtureTranscript };
const extractive = createExtractiveSummarizer();

let server: ChatTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createFallbackSummarizer', () => {
  it('answers with the fallback and a warning when the model server is down', async () => {
    const baseUrl = await closedBaseUrl();
    const openai = createOpenAiSummarizer({ baseUrl, model: 'm', maxRetries: 0 });
    const summary = await createFallbackSummarizer(openai, extractive).summarize(request);
    const { warnings, ...rest } = summary;
    expect(rest).toEqual(await extractive.summarize(request));
    expect(warnings).toHaveLength(1);
    expect(warnings?.[0]).toMatch(
      /^summarizer openai:m failed, used extractive: BACKEND_UNAVAILABLE: .*could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/,
    );
  });

  it('returns the primary summary untouched when it works', async () => {
    server = await startChatServer(() => completion('{"status":"from the model"}'));
    const openai = createOpenAiSummarizer({ baseUrl: server.baseUrl, model: 'm' });
    const summary = await createFallbackSummarizer(openai, extractive).summarize(request);
    expect(summary.source).toBe('openai:m');
    expect(summary.status).toBe('from the model');
    expect(summary.warnings).toBeUndefined();
  });

  it('keeps warnings from nested fallbacks', async () => {
    const failing = (id: string): Summarizer => ({
      id,
      summarize: () => Promise.reject(new Error(`${id} is broken`)),
    });
    const chain = createFallbackSummarizer(
      failing('a'),
      createFallbackSummarizer(failing('b'), extractive),
    );
    const summary = await chain.summarize(request);
    expect(summary.source).toBe('extractive');
    expect(summary.warnings).toEqual([
      'summarizer b failed, used extractive: INTERNAL: b is broken',
      'summarizer a failed, used b>extractive: INTERNAL: a is broken',
    ]);
  });
});

describe('summarizerFromSettings', () => {
  it('builds the extractive summarizer', () => {
    expect(summarizerFromSettings({ provider: 'extractive' }).id).toBe('extractive');
  });

  it('wraps openai in a fallback to extractive and reads the key from the named variable', async () => {
    server = await startChatServer(() => completion('{"status":"ok"}'));
    const summarizer = summarizerFromSettings(
      { provider: 'openai', baseUrl: server.baseUrl, model: 'qwen', apiKeyEnv: 'TEST_LLM_KEY' },
      { TEST_LLM_KEY: 'sk-from-env' },
    );
    expect(summarizer.id).toBe('openai:qwen>extractive');
    expect((await summarizer.summarize(request)).status).toBe('ok');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-from-env');
  });

  it('falls back to extractive when the configured server is down', async () => {
    const summarizer = summarizerFromSettings(
      { provider: 'openai', baseUrl: await closedBaseUrl(), model: 'qwen', maxRetries: 0 },
      {},
    );
    const summary = await summarizer.summarize(request);
    expect(summary.source).toBe('extractive');
    expect(summary.warnings?.[0]).toContain('BACKEND_UNAVAILABLE');
  });

  it.each([
    [{ provider: 'openai', model: 'm' }, 'baseUrl', 'http://127.0.0.1:11434/v1'],
    [{ provider: 'openai', baseUrl: 'http://h/v1' }, 'model', 'provider "extractive"'],
    [{ provider: 'anthropic' }, 'provider', '"extractive" (offline, the default) or "openai"'],
    [
      { provider: 'openai', baseUrl: 'http://h/v1', model: 'm', apiKeyEnv: 'sk-abc-123' },
      'apiKeyEnv',
      'never the key itself',
    ],
    [
      { provider: 'openai', baseUrl: 'http://h/v1', model: 'm', apiKeyEnv: 'MISSING_KEY' },
      'apiKeyEnv',
      'export MISSING_KEY',
    ],
  ])('rejects %j with INVALID_CONFIG naming %s', (settings, key, hint) => {
    let caught: unknown;
    try {
      summarizerFromSettings(settings as never, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'INVALID_CONFIG', details: { key } });
    expect((caught as { hint: string }).hint).toContain(hint);
  });
});
