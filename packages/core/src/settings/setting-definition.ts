import type * as z4 from 'zod/v4/core';
import type { TrustRule } from './trust-rules';

/**
 * Every setting, as data: its dotted key, schema, default, environment
 * variable and description. The resolver, the CLI's `status` and the table
 * in docs/CONFIG.md are all driven from this list.
 */
export interface SettingDefinition {
  /** Dotted path in the config file, e.g. `limits.snippetChars`. */
  key: string;
  /** The environment variable that overrides it. */
  env: string;
  schema: z4.$ZodType;
  /** Turns the raw environment string into a value for `schema`. */
  fromEnv: (raw: string) => unknown;
  /** The default, or a function computing it from the machine. */
  defaultValue: unknown | (() => unknown);
  /** Shown in docs/CONFIG.md. */
  defaultLabel: string;
  description: string;
  /**
   * Whether a value needs a trusted layer (user config, env, options, or a
   * project config the user trusted). Absent: safe from any layer.
   */
  trust?: TrustRule;
  /** When it needs trust, in words, for docs/CONFIG.md. */
  trustLabel?: string;
}
