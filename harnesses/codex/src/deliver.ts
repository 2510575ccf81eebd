import type {
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from '@cairn/core';
import { CairnError, parseInput } from '@cairn/core';
import type * as z4 from 'zod/v4/core';
import {
  CODEX_HOOK_EVENTS,
  type CodexHookEvent,
  type CodexPayload,
  codexPayloadSchemas,
  isCodexHookEvent,
} from './hook-payloads';
import { readRolloutFinalAnswer } from './rollout-answer';
import { readRolloutSummary } from './rollout-summary';

export const CODEX_ID = 'codex';

interface Ids {
  agentId: string;
  sessionKey: string;
}

/**
 * What Codex reads back from SessionStart and UserPromptSubmit (added as a
 * developer message) and from PostToolUse (a known fix for the error the
 * tool just met; PostToolUseHookSpecificOutputWire takes additionalContext).
 */
function injection(event: CodexHookEvent, text: string): unknown {
  if (!text) return undefined;
  return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

type Mapper<E extends CodexHookEvent> = (
  payload: CodexPayload<E>,
  ids: Ids,
  lifecycle: LifecycleApi,
) => Promise<{ output?: unknown; call: string }>;

const MAPPERS: { [E in CodexHookEvent]: Mapper<E> } = {
  async SessionStart(payload, ids, lifecycle) {
    const result = await lifecycle.sessionStart({
      ...ids,
      harness: CODEX_ID,
      cwd: payload.cwd,
      ...(payload.source ? { source: payload.source } : {}),
    });
    return { output: injection('SessionStart', result.inject), call: 'session-start' };
  },
  async UserPromptSubmit(payload, ids, lifecycle) {
    const result = await lifecycle.userPromptSubmit({ ...ids, prompt: payload.prompt });
    return { output: injection('UserPromptSubmit', result.inject), call: 'user-prompt-submit' };
  },
  async PostToolUse(payload, ids, lifecycle) {
    const result = await lifecycle.toolUse({
      ...ids,
      toolName: payload.tool_name,
      input: payload.tool_input,
      output: payload.tool_response,
    });
    return { output: injection('PostToolUse', result.inject), call: 'tool-use' };
  },
  async PreCompact(payload, ids, lifecycle) {
    // Codex takes no context from PreCompact; the call records the boundary.
    await lifecycle.preCompaction({
      ...ids,
      ...(payload.trigger ? { trigger: payload.trigger } : {}),
    });
    return { call: 'pre-compaction' };
  },
  async PostCompact(payload, ids, lifecycle) {
    const summary = await readRolloutSummary(payload.transcript_path);
    await lifecycle.compactionComplete({ ...ids, ...(summary ? { summary } : {}) });
    return { call: 'compaction-complete' };
  },
  async SessionEnd(payload, ids, lifecycle) {
    // The run digest reads how the session ended from the agent's last answer in the rollout.
    const finalAnswer = await readRolloutFinalAnswer(payload.transcript_path);
    // Codex kills SessionEnd hooks after 3 s: the model summary waits for the next start.
    await lifecycle.sessionEnd({
      ...ids,
      ...(payload.reason ? { reason: payload.reason } : {}),
      ...(finalAnswer !== undefined ? { finalAnswer } : {}),
      deferSummary: true,
    });
    return { call: 'session-end' };
  },
};

function parsePayload<E extends CodexHookEvent>(event: E, payload: unknown): CodexPayload<E> {
  const schema: z4.$ZodType<CodexPayload<E>> = codexPayloadSchemas[event] as never;
  const parsed = parseInput(schema, payload, `Codex ${event} payload`);
  if (parsed.hook_event_name !== undefined && parsed.hook_event_name !== event) {
    throw new CairnError(
      'INVALID_INPUT',
      `The payload is for Codex ${parsed.hook_event_name}, but the hook ran as ${event}`,
      { hint: 'check the hook commands in hooks.json; nothing was written' },
    );
  }
  return parsed;
}

/** Parses one Codex hook payload and maps it onto the lifecycle; invalid input writes nothing. */
export async function deliverCodex(
  delivery: HarnessDelivery,
  context: HarnessDeliveryContext,
): Promise<HarnessDeliveryResult> {
  const event = delivery.hookEvent;
  if (!isCodexHookEvent(event)) {
    throw new CairnError('INVALID_INPUT', `Cairn does not handle the Codex hook "${event}"`, {
      hint: `Cairn installs ${CODEX_HOOK_EVENTS.join(', ')}; nothing was written`,
    });
  }
  const payload = parsePayload(event, delivery.payload);
  const ids: Ids = {
    agentId: context.env.CAIRN_AGENT_ID?.trim() || CODEX_ID,
    sessionKey: payload.session_id,
  };
  const mapper = MAPPERS[event] as Mapper<CodexHookEvent>;
  const { output, call } = await mapper(payload, ids, context.lifecycle);
  return { output, ...ids, calls: [call] };
}
