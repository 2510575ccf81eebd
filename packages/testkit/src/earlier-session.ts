import type { LifecycleApi } from '@cairn/core';

/** What an earlier session asked and answered, and whose it was. */
export interface EarlierSession {
  cwd: string;
  prompt: string;
  finalAnswer: string;
  /** The agent: the same agent in the same folder continues the same thread. */
  agentId?: string;
}

/**
 * An earlier session of the project that asked `prompt`, answered
 * `finalAnswer` and ended. Session start injects the heads and what is
 * relevant to the thread's status and next action (docs/PACKS.md
 * "Profiles"), not the newest units: after this session the heads it
 * refreshed say what it was about, and a session start of the same agent
 * asks with that thread's state, so the items relevant to it come with it.
 * Throws when a call failed open.
 */
export async function earlierSession(
  lifecycle: Pick<LifecycleApi, 'sessionStart' | 'userPromptSubmit' | 'sessionEnd'>,
  session: EarlierSession,
): Promise<void> {
  const ids = { agentId: session.agentId ?? 'earlier-session', sessionKey: 'earlier-session-1' };
  const results = [
    await lifecycle.sessionStart({ ...ids, cwd: session.cwd }),
    await lifecycle.userPromptSubmit({ ...ids, prompt: session.prompt }),
    await lifecycle.sessionEnd({ ...ids, reason: 'exit', finalAnswer: session.finalAnswer }),
  ];
  const failed = results.find((r) => r.failed);
  if (failed?.failed) throw new Error(`earlier session: ${failed.failed.message}`);
}
