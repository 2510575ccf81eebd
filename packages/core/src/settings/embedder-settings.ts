import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';
import { lazySchema } from '../contracts/schemas';
import { MODEL_SETTING_DEFINITIONS } from './model-definitions';

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
