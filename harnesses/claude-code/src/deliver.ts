import type {
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
  LifecycleResult,
} from '@cairn/core';
import {
  type ClaudeCodeHookEvent,
  type ClaudeCodePayloadOf,
  parseClaudeCodePayload,
} from './hook-payloads';
import { readTranscriptFinalAnswer } from './transcript-answer';

export const CLAUDE_CODE_ID = 'claude-code';

interface Ids {
  agentId: string;
  sessionKey: string;
}
interface Mapped {
  call: string;
  result: LifecycleResult;
  output?: unknown;
}
type Handlers = {
  [E in ClaudeCodeHookEvent]: (
    payload: ClaudeCodePayloadOf<E>,
    ids: Ids,
    lifecycle: LifecycleApi,
  ) => Promise<Mapped>;
};

/**
 * The reply Claude Code reads from a SessionStart, UserPromptSubmit,
 * PostToolUse or PostToolUseFailure hook's stdout (after a tool: a known
 * fix for the error the tool just met).
 */
function additionalContext(hookEventName: string, inject: string) {
  return inject.trim() === ''
    ? undefined
    : { hookSpecificOutput: { hookEventName, additionalContext: inject } };
}

const HANDLERS: Handlers = {
  // Every source, `compact` included: after a compaction the head goes in again.
  async SessionStart(payload, ids, lifecycle) {
    const { cwd, source } = payload;
    const result = await lifecycle.sessionStart({ ...ids, harness: CLAUDE_CODE_ID, cwd, source });
    return {
      call: 'session-start',
      result,
      output: additionalContext('SessionStart', result.inject),
    };
  },
  async UserPromptSubmit(payload, ids, lifecycle) {
    const result = await lifecycle.userPromptSubmit({ ...ids, prompt: payload.prompt });
    return {
      call: 'user-prompt-submit',
      result,
      output: additionalContext('UserPromptSubmit', result.inject),
    };
  },
  async PostToolUse(payload, ids, lifecycle) {
    const result = await lifecycle.toolUse({
      ...ids,
      toolName: payload.tool_name,
      input: payload.tool_input,
      output: payload.tool_response,
    });
    return { call: 'tool-use', result, output: additionalContext('PostToolUse', result.inject) };
  },
  // A failed call: its error text is the tool's output, so task history records the failure.
  async PostToolUseFailure(payload, ids, lifecycle) {
    const error = typeof payload.error === 'string' ? payload.error : JSON.stringify(payload.error);
    const result = await lifecycle.toolUse({
      ...ids,
      toolName: payload.tool_name,
      input: payload.tool_input,
      output: payload.is_interrupt ? { interrupted: true } : { error: error ?? 'failed' },
    });
    return {
      call: 'tool-use',
      result,
      output: additionalContext('PostToolUseFailure', result.inject),
    };
  },
  // Claude Code appends a PreCompact hook's plain stdout to the compaction instructions.
  async PreCompact(payload, ids, lifecycle) {
    const instructions = payload.custom_instructions;
    const result = await lifecycle.preCompaction({
      ...ids,
      trigger: payload.trigger,
      ...(instructions ? { customInstructions: instructions } : {}),
    });
    const output = result.inject.trim() === '' ? undefined : result.inject;
    return { call: 'pre-compaction', result, output };
  },
  async PostCompact(payload, ids, lifecycle) {
    const result = await lifecycle.compactionComplete({ ...ids, summary: payload.compact_summary });
    return { call: 'compaction-complete', result };
  },
  // Claude Code kills SessionEnd hooks after 1.5 s: the model summary waits for the next start.
  async SessionEnd(payload, ids, lifecycle) {
    // The run digest reads how the session ended from the agent's last answer.
    const finalAnswer = await readTranscriptFinalAnswer(payload.transcript_path);
    const result = await lifecycle.sessionEnd({
      ...ids,
      reason: payload.reason,
      ...(finalAnswer !== undefined ? { finalAnswer } : {}),
      deferSummary: true,
    });
    return { call: 'session-end', result };
  },
};

/**
 * One Claude Code hook delivery: the payload is parsed before anything is
 * written (INVALID_INPUT otherwise), then mapped onto its lifecycle event.
 */
export async function deliverClaudeCode(
  delivery: HarnessDelivery,
  context: HarnessDeliveryContext,
): Promise<HarnessDeliveryResult> {
  const payload = parseClaudeCodePayload(delivery.hookEvent, delivery.payload);
  const agentId = context.env.CAIRN_AGENT_ID?.trim() || CLAUDE_CODE_ID;
  const ids = { agentId, sessionKey: payload.session_id };
  const handler = HANDLERS[payload.hook_event_name] as Handlers[ClaudeCodeHookEvent];
  const { call, output } = await handler(payload as never, ids, context.lifecycle);
  return { ...(output === undefined ? {} : { output }), ...ids, calls: [call] };
}
