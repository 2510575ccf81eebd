import { CairnError, describeZodIssue, lazySchema } from '@cairn/core';
import * as z from 'zod/mini';
import { type ChatEndpoint, postChatCompletion } from './openai-http';
import { chatMessages } from './openai-prompt';
import { chatCompletionSchema, summaryFromContent } from './openai-reply';
import { parseSummaryRequest } from './summary-request';
import type { StructuredSummary, Summarizer, SummaryRequest } from './summary-types';

export interface OpenAiSummarizerOptions {
  /** The API root, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer ...` only when set; local servers need none. */
  apiKey?: string;
  /** Per attempt. Default 30 000. */
  timeoutMs?: number;
  /** Retries after a network error, 429 or 5xx. Default 2. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry. Default 500. */
  retryDelayMs?: number;
  /**
   * Characters of transcript sent (the latest entries). Default 12 000,
   * about 3 000 tokens: small local models often run with a 4k context.
   */
  transcriptBudgetChars?: number;
  /**
   * `json_object` asks for JSON mode. LM Studio rejects it with a 400; that
   * reply switches this summarizer to `none` (plain prompt) automatically.
   */
  responseFormat?: 'json_object' | 'none';
  /** Sent only when set: some models (reasoning models) reject any temperature. */
  temperature?: number;
  /** For tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** classic zod's `z.number().int()`, written with zod/mini. */
const int = () => z.number().check(z.int());

const optionsSchema = lazySchema(() =>
  z.object({
    baseUrl: z.url({ protocol: /^https?$/ }),
    model: z.string().check(z.trim(), z.minLength(1)),
    apiKey: z.optional(z.string()),
    timeoutMs: z._default(int().check(z.positive()), 30_000),
    maxRetries: z._default(int().check(z.gte(0), z.lte(10)), 2),
    retryDelayMs: z._default(int().check(z.gte(0)), 500),
    transcriptBudgetChars: z._default(int().check(z.gte(500)), 12_000),
    responseFormat: z._default(z.enum(['json_object', 'none']), 'json_object'),
    temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
    fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
  }),
);

function parseOptions(options: OpenAiSummarizerOptions): z.output<typeof optionsSchema> {
  const parsed = optionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const { key, reason } = describeZodIssue(parsed.error);
  throw new CairnError('INVALID_CONFIG', `Invalid summarizer option "${key}": ${reason}`, {
    hint: 'baseUrl must be an http(s) URL such as http://127.0.0.1:11434/v1, and model a model name the server knows',
    details: { key, reason },
  });
}

/** `<baseUrl>/chat/completions`, with or without a trailing slash; a full endpoint URL is kept. */
export function chatCompletionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`;
}

function rejectsResponseFormat(error: unknown): boolean {
  if (!CairnError.isInstance(error) || error.details.status !== 400) return false;
  return /response_format/i.test(String(error.details.body ?? ''));
}

/**
 * Summaries from any OpenAI-compatible `/v1/chat/completions` endpoint
 * (OpenAI, Ollama, vLLM, LM Studio). Failures are CairnError
 * BACKEND_UNAVAILABLE; wrap it in createFallbackSummarizer to fail open.
 */
export function createOpenAiSummarizer(options: OpenAiSummarizerOptions): Summarizer {
  const settings = parseOptions(options);
  const source = `openai:${settings.model}`;
  const endpoint: ChatEndpoint = {
    url: chatCompletionsUrl(settings.baseUrl),
    model: settings.model,
    apiKey: settings.apiKey || undefined,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    retryDelayMs: settings.retryDelayMs,
    fetch: settings.fetch ?? globalThis.fetch,
  };
  let jsonMode = settings.responseFormat === 'json_object';

  const complete = async (payload: Record<string, unknown>): Promise<unknown> => {
    if (!jsonMode) return postChatCompletion(endpoint, payload);
    try {
      return await postChatCompletion(endpoint, {
        ...payload,
        response_format: { type: 'json_object' },
      });
    } catch (error) {
      if (!rejectsResponseFormat(error)) throw error;
      jsonMode = false;
      return postChatCompletion(endpoint, payload);
    }
  };

  return {
    id: source,
    async summarize(input: SummaryRequest): Promise<StructuredSummary> {
      const request = parseSummaryRequest(input);
      const payload: Record<string, unknown> = {
        model: settings.model,
        messages: chatMessages(request, settings.transcriptBudgetChars),
        stream: false,
      };
      if (settings.temperature !== undefined) payload.temperature = settings.temperature;
      const reply = chatCompletionSchema.safeParse(await complete(payload));
      const content = reply.success ? reply.data.choices[0]!.message.content?.trim() : undefined;
      if (!content) {
        throw new CairnError('BACKEND_UNAVAILABLE', 'Summarizer reply has no message content', {
          hint: `${endpoint.url} answered without choices[0].message.content; check that it is an OpenAI-compatible chat completions API and that model "${settings.model}" produces text`,
          details: { url: endpoint.url, model: settings.model },
        });
      }
      return summaryFromContent(content, request.maxChars, source);
    },
  };
}
