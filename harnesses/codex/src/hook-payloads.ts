import { lazySchema, sessionKeySchema } from '@cairn/core';
import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';

/**
 * The stdin payloads of the Codex hooks Cairn installs, as Codex 0.169
 * sends them (see fixtures/session/). Unknown fields are ignored so a newer
 * Codex that adds fields still parses; the fields Cairn maps are checked.
 * Written with zod/mini: Codex starts a process per hook.
 */
export const CODEX_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
] as const;
export type CodexHookEvent = (typeof CODEX_HOOK_EVENTS)[number];

/** A string of `min` (when above 0) to `max` characters. */
const text = (max: number, min = 0) =>
  z.string().check(...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));

const common = () => ({
  session_id: sessionKeySchema,
  transcript_path: z.nullish(text(4096)),
  cwd: text(4096, 1),
  hook_event_name: z.optional(text(60)),
  model: z.optional(text(200)),
  turn_id: z.optional(text(200)),
});

export const codexPayloadSchemas = {
  SessionStart: lazySchema(() => z.object({ ...common(), source: z.optional(text(40)) })),
  UserPromptSubmit: lazySchema(() => z.object({ ...common(), prompt: text(200_000) })),
  PostToolUse: lazySchema(() =>
    z.object({
      ...common(),
      tool_name: text(200, 1),
      tool_input: z.optional(z.unknown()),
      tool_response: z.optional(z.unknown()),
    }),
  ),
  PreCompact: lazySchema(() => z.object({ ...common(), trigger: z.optional(text(40)) })),
  PostCompact: lazySchema(() => z.object({ ...common(), trigger: z.optional(text(40)) })),
  SessionEnd: lazySchema(() => z.object({ ...common(), reason: z.optional(text(200)) })),
} satisfies Record<CodexHookEvent, z4.$ZodType>;

export type CodexPayload<E extends CodexHookEvent> = z.output<(typeof codexPayloadSchemas)[E]>;

export function isCodexHookEvent(value: string): value is CodexHookEvent {
  return (CODEX_HOOK_EVENTS as readonly string[]).includes(value);
}
