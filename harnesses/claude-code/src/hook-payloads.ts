import { CairnError, lazySchema, parseInput, sessionKeySchema } from '@cairn/core';
import * as z from 'zod/mini';

/**
 * The hook payloads Claude Code pipes to a command hook (checked against
 * 2.1.330). Only the fields Cairn maps are declared; the many optional
 * fields Claude Code adds from version to version pass through untouched.
 * Written with zod/mini: Claude Code starts a process per hook.
 */

/** A string of `min` (when above 0) to `max` characters. */
const text = (max: number, min = 0) =>
  z.string().check(...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));

const base = () => ({
  session_id: sessionKeySchema,
  transcript_path: text(4096),
  cwd: text(4096, 1),
});

export const sessionStartPayload = lazySchema(() =>
  z.looseObject({
    ...base(),
    hook_event_name: z.literal('SessionStart'),
    /** startup | resume | clear | compact | fork; kept open for sources added later. */
    source: text(40),
  }),
);

export const userPromptSubmitPayload = lazySchema(() =>
  z.looseObject({
    ...base(),
    hook_event_name: z.literal('UserPromptSubmit'),
    prompt: text(200_000),
  }),
);

export const postToolUsePayload = lazySchema(() =>
  z.looseObject({
    ...base(),
    hook_event_name: z.literal('PostToolUse'),
    tool_name: text(200, 1),
    tool_input: z.unknown(),
    tool_response: z.unknown(),
  }),
);

/** A tool call that failed (Bash with a non-zero exit, a tool that threw): `error` is its text. */
export const postToolUseFailurePayload = lazySchema(() =>
  z.looseObject({
    ...base(),
    hook_event_name: z.literal('PostToolUseFailure'),
    tool_name: text(200, 1),
    tool_input: z.unknown(),
    error: z.optional(z.unknown()),
    /** The user stopped the call: not a failure of the tool. */
    is_interrupt: z.optional(z.nullable(z.boolean())),
  }),
);

export const preCompactPayload = lazySchema(() =>
  z.looseObject({
    ...base(),
    hook_event_name: z.literal('PreCompact'),
    trigger: text(40),
    custom_instructions: z.optional(z.nullable(text(20_000))),
  }),
);

export const postCompactPayload = lazySchema(() =>
  z.looseObject({
    ...base(),
    hook_event_name: z.literal('PostCompact'),
    trigger: text(40),
    compact_summary: text(200_000),
  }),
);

export const sessionEndPayload = lazySchema(() =>
  z.looseObject({
    ...base(),
    hook_event_name: z.literal('SessionEnd'),
    reason: text(200),
  }),
);

export const CLAUDE_CODE_PAYLOADS = {
  SessionStart: sessionStartPayload,
  UserPromptSubmit: userPromptSubmitPayload,
  PostToolUse: postToolUsePayload,
  PostToolUseFailure: postToolUseFailurePayload,
  PreCompact: preCompactPayload,
  PostCompact: postCompactPayload,
  SessionEnd: sessionEndPayload,
} as const;

export type ClaudeCodeHookEvent = keyof typeof CLAUDE_CODE_PAYLOADS;
export const CLAUDE_CODE_HOOK_EVENTS = Object.keys(CLAUDE_CODE_PAYLOADS) as ClaudeCodeHookEvent[];

export type ClaudeCodePayloadOf<E extends ClaudeCodeHookEvent> = z.output<
  (typeof CLAUDE_CODE_PAYLOADS)[E]
>;
export type ClaudeCodePayload = {
  [E in ClaudeCodeHookEvent]: ClaudeCodePayloadOf<E>;
}[ClaudeCodeHookEvent];

export function isClaudeCodeHookEvent(name: string): name is ClaudeCodeHookEvent {
  return Object.hasOwn(CLAUDE_CODE_PAYLOADS, name);
}

/** Parses one payload for the hook it was registered under; anything else is INVALID_INPUT. */
export function parseClaudeCodePayload(hookEvent: string, payload: unknown): ClaudeCodePayload {
  if (!isClaudeCodeHookEvent(hookEvent)) {
    throw new CairnError(
      'INVALID_INPUT',
      `Claude Code hook "${hookEvent}" is not one Cairn handles`,
      {
        hint: `register \`cairn hook claude-code <event>\` only for ${CLAUDE_CODE_HOOK_EVENTS.join(', ')} (\`cairn install claude-code\` does this); nothing was written`,
        details: { hookEvent },
      },
    );
  }
  return parseInput(CLAUDE_CODE_PAYLOADS[hookEvent], payload, `Claude Code ${hookEvent} payload`);
}
