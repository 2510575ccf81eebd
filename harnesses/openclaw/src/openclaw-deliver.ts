import { CairnError } from '@cairn/core';
import type {
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from '@cairn/engine';
import {
  isOpenclawHook,
  type OpenclawHook,
  type OpenclawPayload,
  parseOpenclawPayload,
} from './openclaw-payloads';

/** What before_prompt_build hands back to OpenClaw (its PluginHookBeforePromptBuildResult). */
export interface OpenclawPromptBuildOutput {
  prependContext?: string;
  appendSystemContext?: string;
}

/** What the plugin remembers of one session between hooks. */
interface SessionState {
  /** The session-start inject, returned with every prompt build of the session. */
  head: string;
  /** Set by an end event; cleared by any later activity, so an end is never summarised twice. */
  ended: boolean;
}

/**
 * The memory of the sessions seen, kept apart from the mapping so that every
 * plugin instance in a process can share it: the OpenClaw gateway registers
 * the plugin more than once (its startup registry fires session_start, the
 * registry an agent run loads fires the prompt, tool and end hooks), and the
 * head session_start computed must reach the prompt build, because Cairn
 * injects each memory only once per session.
 */
export interface OpenclawDeliverState {
  sessions: Map<string, SessionState>;
  /** Session starts still running, so a prompt build that races one awaits its head. */
  starting: Map<string, Promise<SessionState>>;
  sessionOfRun: Map<string, string>;
}

export function createOpenclawDeliverState(): OpenclawDeliverState {
  return { sessions: new Map(), starting: new Map(), sessionOfRun: new Map() };
}

interface Ids {
  agentId: string;
  sessionKey: string;
}

export type OpenclawDeliver = (
  delivery: HarnessDelivery,
  context: HarnessDeliveryContext,
) => Promise<HarnessDeliveryResult>;

function agentIdOf(env: Record<string, string | undefined>): string {
  return env.CAIRN_AGENT_ID || 'openclaw';
}

function missingSession(hook: string): CairnError {
  return new CairnError('INVALID_INPUT', `OpenClaw ${hook} payload names no session`, {
    hint: 'the payload needs ctx.sessionId (or a runId seen at before_prompt_build); nothing was changed',
  });
}

/**
 * The mapping of OpenClaw's plugin hooks onto the lifecycle. Stateful per
 * instance: OpenClaw's session_start fires only for new gateway sessions,
 * so the first prompt build of an unseen session starts it, and tool hooks
 * that lack a session id are matched to their run.
 */
export function createOpenclawDeliver(
  state: OpenclawDeliverState = createOpenclawDeliverState(),
): OpenclawDeliver {
  const { sessions, starting, sessionOfRun } = state;

  const key = (ids: Ids) => `${ids.agentId}\u0000${ids.sessionKey}`;

  async function start(
    lifecycle: LifecycleApi,
    ids: Ids,
    extra: { cwd?: string; source?: string },
  ): Promise<SessionState> {
    const started = lifecycle
      .sessionStart({ ...ids, harness: 'openclaw', ...extra })
      .then((result): SessionState => {
        const session: SessionState = { head: result.inject, ended: false };
        sessions.set(key(ids), session);
        return session;
      })
      .finally(() => starting.delete(key(ids)));
    starting.set(key(ids), started);
    return started;
  }

  function touch(ids: Ids): void {
    const state = sessions.get(key(ids));
    if (state) state.ended = false;
  }

  function sessionOf(
    hook: string,
    ctx: { sessionId?: string | undefined; runId?: string | undefined },
  ): string {
    const sessionKey = ctx.sessionId ?? (ctx.runId ? sessionOfRun.get(ctx.runId) : undefined);
    if (!sessionKey) throw missingSession(hook);
    return sessionKey;
  }

  const handlers: {
    [H in OpenclawHook]: (
      payload: OpenclawPayload<H>,
      lifecycle: LifecycleApi,
      agentId: string,
    ) => Promise<{ ids: Ids; calls: string[]; output?: unknown }>;
  } = {
    async session_start({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: event.sessionId ?? ctx.sessionId };
      await start(lifecycle, ids, { source: event.resumedFrom ? 'resume' : 'startup' });
      return { ids, calls: ['session-start'] };
    },
    async before_prompt_build({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: sessionOf('before_prompt_build', ctx) };
      if (ctx.runId) sessionOfRun.set(ctx.runId, ids.sessionKey);
      const calls: string[] = [];
      let state = sessions.get(key(ids)) ?? (await starting.get(key(ids)));
      if (!state) {
        state = await start(lifecycle, ids, {
          source: 'first-prompt',
          ...(ctx.workspaceDir ? { cwd: ctx.workspaceDir } : {}),
        });
        calls.push('session-start');
      }
      state.ended = false;
      const prompt = event.currentUserMessage || event.prompt;
      const recall = await lifecycle.userPromptSubmit({ ...ids, prompt });
      calls.push('user-prompt-submit');
      const output: OpenclawPromptBuildOutput = {
        ...(recall.inject ? { prependContext: recall.inject } : {}),
        ...(state.head ? { appendSystemContext: state.head } : {}),
      };
      return { ids, calls, ...(Object.keys(output).length > 0 ? { output } : {}) };
    },
    async after_tool_call({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: sessionOf('after_tool_call', ctx) };
      touch(ids);
      await lifecycle.toolUse({
        ...ids,
        toolName: event.toolName,
        input: event.params,
        output: event.error === undefined ? event.result : { error: event.error },
      });
      return { ids, calls: ['tool-use'] };
    },
    async before_compaction({ ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: sessionOf('before_compaction', ctx) };
      touch(ids);
      await lifecycle.preCompaction(ids);
      return { ids, calls: ['pre-compaction'] };
    },
    async after_compaction({ ctx, compactionSummary }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: sessionOf('after_compaction', ctx) };
      touch(ids);
      await lifecycle.compactionComplete({
        ...ids,
        ...(compactionSummary ? { summary: compactionSummary } : {}),
      });
      return { ids, calls: ['compaction-complete'] };
    },
    async session_end({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: event.sessionId ?? ctx.sessionId };
      return end(lifecycle, ids, event.reason ?? 'session_end');
    },
    async agent_end({ event, ctx }, lifecycle, agentId) {
      const ids = { agentId, sessionKey: sessionOf('agent_end', ctx) };
      return end(lifecycle, ids, event.success === false ? 'run-failed' : 'run-end');
    },
  };

  async function end(lifecycle: LifecycleApi, ids: Ids, reason: string) {
    const state = sessions.get(key(ids));
    if (state?.ended) return { ids, calls: [] };
    await lifecycle.sessionEnd({ ...ids, reason, deferSummary: true });
    sessions.set(key(ids), { head: state?.head ?? '', ended: true });
    return { ids, calls: ['session-end'] };
  }

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
    ) => Promise<{ ids: Ids; calls: string[]; output?: unknown }>;
    const { ids, calls, output } = await handler(
      payload,
      context.lifecycle,
      agentIdOf(context.env),
    );
    return { ...(output !== undefined ? { output } : {}), ...ids, calls };
  };
}
