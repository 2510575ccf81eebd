import {
  agentIdSchema,
  lazySchema,
  parseInput,
  sessionKeySchema,
  threadKeySchema,
} from '@cairn/core';
import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';

/* zod/mini: hooks start a process per event (see core's contracts/schemas.ts). */
const text = (max: number, min = 0) =>
  z.string().check(...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));
const base = { agentId: agentIdSchema, sessionKey: sessionKeySchema };

/** Inputs of the lifecycle events (ARCHITECTURE.md "Lifecycle events"); extra harness fields are ignored. */
export const sessionStartSchema = lazySchema(() =>
  z.object({
    ...base,
    harness: z.optional(text(60)),
    cwd: z.optional(text(4096)),
    /** startup | resume | clear | compact | ... as the harness names it. */
    source: z.optional(text(40)),
    /** An explicit topic or person thread; default: the project plus its git branch. */
    threadKey: z.optional(threadKeySchema),
  }),
);
export const userPromptSubmitSchema = lazySchema(() =>
  z.object({ ...base, prompt: text(200_000) }),
);
export const toolUseSchema = lazySchema(() =>
  z.object({
    ...base,
    toolName: text(200, 1),
    input: z.optional(z.unknown()),
    output: z.optional(z.unknown()),
  }),
);
export const preCompactionSchema = lazySchema(() =>
  z.object({
    ...base,
    trigger: z.optional(text(40)),
    customInstructions: z.optional(text(20_000)),
  }),
);
export const compactionCompleteSchema = lazySchema(() =>
  z.object({
    ...base,
    summary: z.optional(text(200_000)),
  }),
);
export const sessionEndSchema = lazySchema(() =>
  z.object({
    ...base,
    reason: z.optional(text(200)),
    /** Hooks with a short budget: the model summary waits for the next session start. */
    deferSummary: z.optional(z.boolean()),
  }),
);

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

export function parseLifecycleInput<S extends z4.$ZodType>(
  schema: S,
  value: unknown,
  event: string,
): z.output<S> {
  return parseInput(schema, value, `${event} payload`);
}
