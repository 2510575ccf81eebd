import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';
import { intInRange, lazySchema } from '../contracts/schemas';
import { parseBoolean, parseNumber, parseString } from './env-values';
import type { SettingDefinition } from './setting-definition';
import { localPathRule } from './trust-rules';

/**
 * The settings of the model providers: the summarizer and the embedder.
 * Most of them send data off the machine, so they carry trust rules (see
 * trust-rules.ts): from an untrusted project config they are ignored.
 */
export const MODEL_SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  {
    key: 'summarizer.provider',
    env: 'CAIRN_SUMMARIZER_PROVIDER',
    schema: lazySchema(() => z.enum(['extractive', 'openai'])),
    fromEnv: parseString,
    defaultValue: 'extractive',
    defaultLabel: '`"extractive"`',
    description:
      'Who writes session summaries when the harness gives none: `extractive` (offline, deterministic) or `openai` (any OpenAI-compatible /v1/chat/completions).',
    trust: (value) => (value === 'openai' ? 'network' : false),
    trustLabel: '`openai`',
  },
  {
    key: 'summarizer.baseUrl',
    env: 'CAIRN_SUMMARIZER_BASE_URL',
    schema: lazySchema(() => z.union([z.literal(''), z.url()])),
    fromEnv: parseString,
    defaultValue: '',
    defaultLabel: '`""`',
    description:
      'Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1` (Ollama).',
    trust: (value) => (value === '' ? false : 'network'),
    trustLabel: 'any value but `""`',
  },
  {
    key: 'summarizer.model',
    env: 'CAIRN_SUMMARIZER_MODEL',
    schema: lazySchema(() => z.string().check(z.maxLength(200))),
    fromEnv: parseString,
    defaultValue: '',
    defaultLabel: '`""`',
    description: 'Model name for the `openai` summarizer.',
  },
  {
    key: 'summarizer.apiKeyEnv',
    env: 'CAIRN_SUMMARIZER_API_KEY_ENV',
    schema: lazySchema(() =>
      z.union([
        z.literal(''),
        z.string().check(z.regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name')),
      ]),
    ),
    fromEnv: parseString,
    defaultValue: 'OPENAI_API_KEY',
    defaultLabel: '`"OPENAI_API_KEY"`',
    description:
      'Name of the environment variable holding the API key (the key itself is never stored in config); `""` sends no key, for local servers such as Ollama.',
    trust: (value) => (value === '' ? false : 'network'),
    trustLabel: 'any value but `""`',
  },
  {
    key: 'embedder.provider',
    env: 'CAIRN_EMBEDDER_PROVIDER',
    schema: lazySchema(() => z.enum(['none', 'hash', 'openai', 'transformers'])),
    fromEnv: parseString,
    defaultValue: 'none',
    defaultLabel: '`"none"`',
    description:
      'What turns text into vectors for hybrid search: `none` (keyword search only), `hash` (deterministic, offline, no model), `openai` (any OpenAI-compatible /v1/embeddings: OpenAI, Ollama, vLLM, LM Studio) or `transformers` (@huggingface/transformers from a local model directory). See docs/SEARCH.md.',
    trust: (value) => (value === 'openai' ? 'network' : false),
    trustLabel: '`openai`',
  },
  {
    key: 'embedder.model',
    env: 'CAIRN_EMBEDDER_MODEL',
    schema: lazySchema(() => z.string().check(z.maxLength(200))),
    fromEnv: parseString,
    defaultValue: '',
    defaultLabel: '`""`',
    description:
      'Model name: required for `openai` (e.g. `text-embedding-3-small`, `nomic-embed-text`); for `transformers` the model id, looked up under `embedder.modelDir`. Changing it rebuilds the stored vectors.',
  },
  {
    key: 'embedder.baseUrl',
    env: 'CAIRN_EMBEDDER_BASE_URL',
    schema: lazySchema(() => z.union([z.literal(''), z.url()])),
    fromEnv: parseString,
    defaultValue: '',
    defaultLabel: '`""`',
    description:
      'Base URL of the OpenAI-compatible API for the `openai` embedder, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`.',
    trust: (value) => (value === '' ? false : 'network'),
    trustLabel: 'any value but `""`',
  },
  {
    key: 'embedder.apiKeyEnv',
    env: 'CAIRN_EMBEDDER_API_KEY_ENV',
    schema: lazySchema(() =>
      z.union([
        z.literal(''),
        z.string().check(z.regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name')),
      ]),
    ),
    fromEnv: parseString,
    defaultValue: 'OPENAI_API_KEY',
    defaultLabel: '`"OPENAI_API_KEY"`',
    description:
      'Name of the environment variable holding the embedder API key (never the key itself); `""` sends no key, for local servers.',
    trust: (value) => (value === '' ? false : 'network'),
    trustLabel: 'any value but `""`',
  },
  {
    key: 'embedder.dimensions',
    env: 'CAIRN_EMBEDDER_DIMENSIONS',
    schema: lazySchema(() => intInRange(0, 8192)),
    fromEnv: parseNumber,
    defaultValue: 0,
    defaultLabel: '`0` (provider default)',
    description:
      'Vector size. `0` means the provider default (`hash`: 256); required for `openai` and `transformers`, and every vector the provider returns is checked against it.',
  },
  {
    key: 'embedder.modelDir',
    env: 'CAIRN_EMBEDDER_MODEL_DIR',
    schema: lazySchema(() => z.string().check(z.maxLength(1000))),
    fromEnv: parseString,
    defaultValue: '',
    defaultLabel: '`""`',
    description:
      'For `transformers`: the local folder holding the model (`<modelDir>/<model>/`). Required; nothing is fetched from a model hub unless `embedder.allowDownload` is true.',
    trust: (value) => (value === '' ? false : localPathRule(value)),
    trustLabel: 'a path outside the project',
  },
  {
    key: 'embedder.allowDownload',
    env: 'CAIRN_EMBEDDER_ALLOW_DOWNLOAD',
    schema: lazySchema(() => z.boolean()),
    fromEnv: parseBoolean,
    defaultValue: false,
    defaultLabel: '`false`',
    description:
      'Let the `transformers` embedder download a missing model from the Hugging Face hub. Off by default: Cairn never downloads a model on its own.',
    trust: (value) => (value === true ? 'network' : false),
    trustLabel: '`true`',
  },
  {
    key: 'embedder.batchSize',
    env: 'CAIRN_EMBEDDER_BATCH_SIZE',
    schema: lazySchema(() => intInRange(1, 2048)),
    fromEnv: parseNumber,
    defaultValue: 64,
    defaultLabel: '`64`',
    description: 'Texts sent to the embedder per request.',
  },
  {
    key: 'embedder.timeoutMs',
    env: 'CAIRN_EMBEDDER_TIMEOUT_MS',
    schema: lazySchema(() => intInRange(100, 600_000)),
    fromEnv: parseNumber,
    defaultValue: 30_000,
    defaultLabel: '`30000`',
    description: 'Per-request timeout of the `openai` embedder (each retry gets its own).',
  },
];

const EMBEDDER_KEYS = [
  'provider',
  'model',
  'baseUrl',
  'apiKeyEnv',
  'dimensions',
  'modelDir',
  'allowDownload',
  'batchSize',
  'timeoutMs',
] as const;

function field(name: (typeof EMBEDDER_KEYS)[number]) {
  const definition = MODEL_SETTING_DEFINITIONS.find((d) => d.key === `embedder.${name}`);
  if (!definition) throw new Error(`no setting definition for embedder.${name}`);
  return z._default(definition.schema, definition.defaultValue as never);
}

type EmbedderShape = {
  provider: z.ZodMiniDefault<
    z.ZodMiniEnum<{ none: 'none'; hash: 'hash'; openai: 'openai'; transformers: 'transformers' }>
  >;
  model: z.ZodMiniDefault<z4.$ZodType<string>>;
  baseUrl: z.ZodMiniDefault<z4.$ZodType<string>>;
  apiKeyEnv: z.ZodMiniDefault<z4.$ZodType<string>>;
  dimensions: z.ZodMiniDefault<z4.$ZodType<number>>;
  modelDir: z.ZodMiniDefault<z4.$ZodType<string>>;
  allowDownload: z.ZodMiniDefault<z4.$ZodType<boolean>>;
  batchSize: z.ZodMiniDefault<z4.$ZodType<number>>;
  timeoutMs: z.ZodMiniDefault<z4.$ZodType<number>>;
};

/**
 * The `embedder.*` settings as one object, every field with the schema and
 * default of its setting definition: the settings resolver and the engine's
 * embedder factory read the same rule (one schema, one set of defaults).
 */
export const embedderSettingsSchema = lazySchema(() =>
  z.object(Object.fromEntries(EMBEDDER_KEYS.map((name) => [name, field(name)])) as EmbedderShape),
);

export type EmbedderSettings = z.input<typeof embedderSettingsSchema>;
export type ResolvedEmbedderSettings = z.output<typeof embedderSettingsSchema>;
