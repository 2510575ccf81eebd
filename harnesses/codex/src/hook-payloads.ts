import { z } from 'zod';

/**
 * The stdin payloads of the Codex hooks Cairn installs, as Codex 0.169
 * sends them (see fixtures/session/). Unknown fields are ignored so a newer
 * Codex that adds fields still parses; the fields Cairn maps are checked.
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

const common = {
  session_id: z.string().min(1).max(200),
  transcript_path: z.string().max(4096).nullish(),
  cwd: z.string().min(1).max(4096),
  hook_event_name: z.string().max(60).optional(),
  model: z.string().max(200).optional(),
  turn_id: z.string().max(200).optional(),
};

export const codexPayloadSchemas = {
  SessionStart: z.object({ ...common, source: z.string().max(40).optional() }),
  UserPromptSubmit: z.object({ ...common, prompt: z.string().max(200_000) }),
  PostToolUse: z.object({
    ...common,
    tool_name: z.string().min(1).max(200),
    tool_input: z.unknown().optional(),
    tool_response: z.unknown().optional(),
  }),
  PreCompact: z.object({ ...common, trigger: z.string().max(40).optional() }),
  PostCompact: z.object({ ...common, trigger: z.string().max(40).optional() }),
  SessionEnd: z.object({ ...common, reason: z.string().max(200).optional() }),
} satisfies Record<CodexHookEvent, z.ZodType>;

export type CodexPayload<E extends CodexHookEvent> = z.output<(typeof codexPayloadSchemas)[E]>;

export function isCodexHookEvent(value: string): value is CodexHookEvent {
  return (CODEX_HOOK_EVENTS as readonly string[]).includes(value);
}
