import { CairnError, describeZodIssue, lazySchema } from '@cairn/core';
import * as z from 'zod/mini';
import { createExtractiveSummarizer } from './extractive-summarizer';
import { createFallbackSummarizer } from './fallback-summarizer';
import { createOpenAiSummarizer } from './openai-summarizer';
import type { Summarizer } from './summary-types';

export interface SummarizerSettings {
  provider: 'extractive' | 'openai';
  /** For `openai`: the API root, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl?: string;
  /** For `openai`: the model name, e.g. `llama3.2` or `gpt-4o-mini`. */
  model?: string;
  /** The name of the environment variable holding the API key (never the key itself). */
  apiKeyEnv?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

const settingsSchema = lazySchema(() =>
  z.object({
    provider: z.enum(['extractive', 'openai']),
    baseUrl: z.optional(z.string().check(z.trim(), z.minLength(1))),
    model: z.optional(z.string().check(z.trim(), z.minLength(1))),
    apiKeyEnv: z.optional(
      z
        .string()
        .check(
          z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name, not a key'),
        ),
    ),
    timeoutMs: z.optional(z.number().check(z.int(), z.positive())),
    maxRetries: z.optional(z.number().check(z.int(), z.gte(0), z.lte(10))),
  }),
);

function invalid(key: string, reason: string, hint: string): CairnError {
  return new CairnError('INVALID_CONFIG', `Invalid summarizer setting "${key}": ${reason}`, {
    hint,
    details: { key, reason },
  });
}

const SETTING_HINTS: Record<string, string> = {
  provider:
    'set provider to "extractive" (offline, the default) or "openai" (any OpenAI-compatible server)',
  apiKeyEnv:
    'set apiKeyEnv to the NAME of the variable holding the key, e.g. "OPENAI_API_KEY", never the key itself',
};

const OPENAI_HINT =
  'set baseUrl and model, e.g. baseUrl "http://127.0.0.1:11434/v1" and model "llama3.2" for Ollama, or use provider "extractive"';

/**
 * The configured summarizer. `openai` is wrapped in a fallback to the
 * extractive summarizer, so summaries keep coming when the server is down.
 * Configuration mistakes throw INVALID_CONFIG here, before any request.
 */
export function summarizerFromSettings(
  settings: SummarizerSettings,
  env: Record<string, string | undefined> = process.env,
): Summarizer {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) {
    const { key, reason } = describeZodIssue(parsed.error);
    throw invalid(
      key,
      reason,
      SETTING_HINTS[key] ?? 'see the summarizer settings in docs/CONFIG.md',
    );
  }
  const { provider, baseUrl, model, apiKeyEnv, timeoutMs, maxRetries } = parsed.data;
  const extractive = createExtractiveSummarizer();
  if (provider === 'extractive') return extractive;
  if (!baseUrl) throw invalid('baseUrl', 'required for provider "openai"', OPENAI_HINT);
  if (!model) throw invalid('model', 'required for provider "openai"', OPENAI_HINT);
  let apiKey: string | undefined;
  if (apiKeyEnv) {
    apiKey = env[apiKeyEnv]?.trim();
    if (!apiKey) {
      throw invalid(
        'apiKeyEnv',
        `environment variable ${apiKeyEnv} is not set`,
        `export ${apiKeyEnv} before starting the harness, or set summarizer.apiKeyEnv to "" (local servers such as Ollama need no key)`,
      );
    }
  }
  const openai = createOpenAiSummarizer({ baseUrl, model, apiKey, timeoutMs, maxRetries });
  return createFallbackSummarizer(openai, extractive);
}
