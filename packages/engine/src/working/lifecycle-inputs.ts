import { parseInput } from '@cairn/core';
import { z } from 'zod';

const key = z.string().min(1).max(200);
const base = { agentId: key, sessionKey: key };
const threadKey = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,79}$/,
    'thread keys are lowercase letters, digits, ".", "_" and "-"',
  );

/** Inputs of the lifecycle events (ARCHITECTURE.md "Lifecycle events"); extra harness fields are ignored. */
export const sessionStartSchema = z.object({
  ...base,
  harness: z.string().max(60).optional(),
  cwd: z.string().max(4096).optional(),
  /** startup | resume | clear | compact | ... as the harness names it. */
  source: z.string().max(40).optional(),
  /** An explicit topic or person thread; default: the project plus its git branch. */
  threadKey: threadKey.optional(),
});
export const userPromptSubmitSchema = z.object({ ...base, prompt: z.string().max(200_000) });
export const toolUseSchema = z.object({
  ...base,
  toolName: z.string().min(1).max(200),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
});
export const preCompactionSchema = z.object({
  ...base,
  trigger: z.string().max(40).optional(),
  customInstructions: z.string().max(20_000).optional(),
});
export const compactionCompleteSchema = z.object({
  ...base,
  summary: z.string().max(200_000).optional(),
});
export const sessionEndSchema = z.object({
  ...base,
  reason: z.string().max(200).optional(),
  /** Hooks with a short budget: the model summary waits for the next session start. */
  deferSummary: z.boolean().optional(),
});

export type SessionStartInput = z.input<typeof sessionStartSchema>;
export type UserPromptSubmitInput = z.input<typeof userPromptSubmitSchema>;
export type ToolUseInput = z.input<typeof toolUseSchema>;
export type PreCompactionInput = z.input<typeof preCompactionSchema>;
export type CompactionCompleteInput = z.input<typeof compactionCompleteSchema>;
export type SessionEndInput = z.input<typeof sessionEndSchema>;

export const LIFECYCLE_SCHEMAS = {
  'session-start': sessionStartSchema,
  'user-prompt-submit': userPromptSubmitSchema,
  'tool-use': toolUseSchema,
  'pre-compaction': preCompactionSchema,
  'compaction-complete': compactionCompleteSchema,
  'session-end': sessionEndSchema,
} as const;

export type LifecycleEventName = keyof typeof LIFECYCLE_SCHEMAS;

export function parseLifecycleInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  event: string,
): z.output<S> {
  return parseInput(schema, value, `${event} payload`);
}
