import type {
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from '@cairn/core';
import { CairnError } from '@cairn/core';
import {
  isOpenclawHook,
  type OpenclawHook,
  type OpenclawPayload,
  parseOpenclawPayload,
} from './hook-payloads';
import { finalAnswerOf } from './openclaw-answer';
import {
  createOpenclawDeliverState,
  type Ids,
  type OpenclawDeliverState,
  type OpenclawSessions,
  openclawSessions,
} from './openclaw-sessions';

export { createOpenclawDeliverState, type OpenclawDeliverState };

/** What before_prompt_build hands back to OpenClaw (its PluginHookBeforePromptBuildResult). */
export interface OpenclawPromptBuildOutput {
  prependContext?: string;
  appendSystemContext?: string;
}

export type OpenclawDeliver = (
  delivery: HarnessDelivery,
  context: HarnessDeliveryContext,
) => Promise<HarnessDeliveryResult>;

function agentIdOf(env: Record<string, string | undefined>): string {
  return env.CAIRN_AGENT_ID || 'openclaw';
}

type Handled = { ids: Ids; calls: string[]; output?: unknown };
type Handlers = {
  [H in OpenclawHook]: (
    payload: OpenclawPayload<H>,
    lifecycle: LifecycleApi,
    agentId: string,
  ) => Promise<Handled>;
};

/** The session hooks: start, prompt build (which starts an unseen session), end. */
function sessionHandlers(
  s: OpenclawSessions,
): Pick<Handlers, 'session_start' | 'before_prompt_build' | 'session_end' | 'agent_end'> {
  return {
    async session_start({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: event.sessionId ?? ctx.sessionId };
      await s.start(lifecycle, ids, { source: event.resumedFrom ? 'resume' : 'startup' });
      return { ids, calls: ['session-start'] };
    },
    async before_prompt_build({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: s.sessionOf('before_prompt_build', ctx) };
      s.remember(ctx.runId, ids.sessionKey);
      const calls: string[] = [];
      let state = await s.current(ids);
      if (!state) {
        state = await s.start(lifecycle, ids, {
          source: 'first-prompt',
          ...(ctx.workspaceDir ? { cwd: ctx.workspaceDir } : {}),
        });
        calls.push('session-start');
      }
      state.ended = false;
      const prompt = event.currentUserMessage || event.prompt;
      const recall = await lifecycle.userPromptSubmit({ ...ids, prompt });
      calls.push('user-prompt-submit');
      const prepend = [state.knownFix, recall.inject].filter(Boolean).join('\n\n');
      state.knownFix = undefined;
      const output: OpenclawPromptBuildOutput = {
        ...(prepend ? { prependContext: prepend } : {}),
        ...(state.head ? { appendSystemContext: state.head } : {}),
      };
      return { ids, calls, ...(Object.keys(output).length > 0 ? { output } : {}) };
    },
    async session_end({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: event.sessionId ?? ctx.sessionId };
      return s.end(lifecycle, ids, event.reason ?? 'session_end');
    },
    async agent_end({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: s.sessionOf('agent_end', ctx) };
      const finalAnswer = event.messages ? finalAnswerOf(event.messages) : undefined;
      const reason = event.success === false ? 'run-failed' : 'run-end';
      return s.end(lifecycle, ids, reason, finalAnswer);
    },
  };
}

/** The hooks inside a session: tool calls and compaction. */
function activityHandlers(
  s: OpenclawSessions,
): Pick<Handlers, 'after_tool_call' | 'before_compaction' | 'after_compaction'> {
  return {
    async after_tool_call({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: s.sessionOf('after_tool_call', ctx) };
      s.touch(ids);
      const result = await lifecycle.toolUse({
        ...ids,
        toolName: event.toolName,
        input: event.params,
        output: event.error === undefined ? event.result : { error: event.error },
      });
      // after_tool_call injects nothing: a known fix waits for the next prompt build.
      s.pendFix(ids, result.inject);
      return { ids, calls: ['tool-use'] };
    },
    async before_compaction({ ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: s.sessionOf('before_compaction', ctx) };
      s.touch(ids);
      await lifecycle.preCompaction(ids);
      return { ids, calls: ['pre-compaction'] };
    },
    async after_compaction({ ctx, compactionSummary }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: s.sessionOf('after_compaction', ctx) };
      s.touch(ids);
      await lifecycle.compactionComplete({
        ...ids,
        ...(compactionSummary ? { summary: compactionSummary } : {}),
      });
      return { ids, calls: ['compaction-complete'] };
    },
  };
}

/**
 * The mapping of OpenClaw's plugin hooks onto the lifecycle. Stateful per
 * instance (see openclaw-sessions.ts), sharing `state` between instances.
 */
export function createOpenclawDeliver(
  state: OpenclawDeliverState = createOpenclawDeliverState(),
): OpenclawDeliver {
  const sessions = openclawSessions(state);
  const handlers: Handlers = { ...sessionHandlers(sessions), ...activityHandlers(sessions) };
  return async function deliver(delivery, context) {
    const { hookEvent } = delivery;
    if (!isOpenclawHook(hookEvent)) {
      throw new CairnError('INVALID_INPUT', `OpenClaw hook ${hookEvent} is not one Cairn handles`, {
        hint: 'Cairn maps session_start, before_prompt_build, after_tool_call, before_compaction, after_compaction, session_end and agent_end',
      });
    }
    const payload = parseOpenclawPayload(hookEvent, delivery.payload);
    const handler = handlers[hookEvent] as (
      payload: unknown,
      lifecycle: LifecycleApi,
      agentId: string,
    ) => Promise<Handled>;
    const { ids, calls, output } = await handler(
      payload,
      context.lifecycle,
      agentIdOf(context.env),
    );
    return { ...(output !== undefined ? { output } : {}), ...ids, calls };
  };
}
