import type { LifecycleApi } from '@cairn/core';
import { CairnError } from '@cairn/core';

/** What the plugin remembers of one session between hooks. */
export interface SessionState {
  /** The session-start inject, returned with every prompt build of the session. */
  head: string;
  /** Set by an end event; cleared by any later activity, so an end is never summarised twice. */
  ended: boolean;
  /**
   * A known fix for an error a tool met (after_tool_call cannot inject):
   * the next prompt build carries it, once.
   */
  knownFix?: string;
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

export interface Ids {
  agentId: string;
  sessionKey: string;
}

function missingSession(hook: string): CairnError {
  return new CairnError('INVALID_INPUT', `OpenClaw ${hook} payload names no session`, {
    hint: 'the payload needs ctx.sessionId (or a runId seen at before_prompt_build); nothing was changed',
  });
}

/**
 * Sessions as the plugin sees them: OpenClaw's session_start fires only for
 * new gateway sessions, so the first prompt build of an unseen session starts
 * it; tool hooks that lack a session id are matched to their run; an end is
 * delivered once.
 */
export function openclawSessions(state: OpenclawDeliverState) {
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

  return {
    start,
    /** The session's state, once its start (possibly still running) is done. */
    async current(ids: Ids): Promise<SessionState | undefined> {
      return sessions.get(key(ids)) ?? (await starting.get(key(ids)));
    },
    /** Keeps a known fix for the session's next prompt build. */
    pendFix(ids: Ids, text: string): void {
      const session = sessions.get(key(ids));
      if (session && text) session.knownFix = text;
    },
    touch(ids: Ids): void {
      const session = sessions.get(key(ids));
      if (session) session.ended = false;
    },
    remember(runId: string | undefined, sessionKey: string): void {
      if (runId) sessionOfRun.set(runId, sessionKey);
    },
    sessionOf(hook: string, ctx: { sessionId?: string | undefined; runId?: string | undefined }) {
      const sessionKey = ctx.sessionId ?? (ctx.runId ? sessionOfRun.get(ctx.runId) : undefined);
      if (!sessionKey) throw missingSession(hook);
      return sessionKey;
    },
    /** `finalAnswer`: the agent's last answer when the event carried the run's messages. */
    async end(lifecycle: LifecycleApi, ids: Ids, reason: string, finalAnswer?: string | null) {
      const session = sessions.get(key(ids));
      if (session?.ended) return { ids, calls: [] };
      await lifecycle.sessionEnd({
        ...ids,
        reason,
        ...(finalAnswer !== undefined ? { finalAnswer } : {}),
        deferSummary: true,
      });
      // A known fix still waiting survives the end of a run: the session's next prompt carries it.
      sessions.set(key(ids), { ...session, head: session?.head ?? '', ended: true });
      return { ids, calls: ['session-end'] };
    },
  };
}

export type OpenclawSessions = ReturnType<typeof openclawSessions>;
