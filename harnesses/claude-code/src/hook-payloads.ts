import { CairnError, parseInput } from '@cairn/core';
import { z } from 'zod';

/**
 * The hook payloads Claude Code pipes to a command hook (checked against
 * 2.1.330). Only the fields Cairn maps are declared; the many optional
 * fields Claude Code adds from version to version pass through untouched.
 */
const base = {
  session_id: z.string().min(1).max(200),
  transcript_path: z.string().max(4096),
  cwd: z.string().min(1).max(4096),
};

export const sessionStartPayload = z.looseObject({
  ...base,
  hook_event_name: z.literal('SessionStart'),
  /** startup | resume | clear | compact | fork; kept open for sources added later. */
  source: z.string().max(40),
});

export const userPromptSubmitPayload = z.looseObject({
  ...base,
  hook_event_name: z.literal('UserPromptSubmit'),
  prompt: z.string().max(200_000),
});

export const postToolUsePayload = z.looseObject({
  ...base,
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.string().min(1).max(200),
  tool_input: z.unknown(),
  tool_response: z.unknown(),
});

export const preCompactPayload = z.looseObject({
  ...base,
  hook_event_name: z.literal('PreCompact'),
  trigger: z.string().max(40),
  custom_instructions: z.string().max(20_000).nullable().optional(),
});

export const postCompactPayload = z.looseObject({
  ...base,
  hook_event_name: z.literal('PostCompact'),
  trigger: z.string().max(40),
  compact_summary: z.string().max(200_000),
});

export const sessionEndPayload = z.looseObject({
  ...base,
  hook_event_name: z.literal('SessionEnd'),
  reason: z.string().max(200),
});

export const CLAUDE_CODE_PAYLOADS = {
  SessionStart: sessionStartPayload,
  UserPromptSubmit: userPromptSubmitPayload,
  PostToolUse: postToolUsePayload,
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
