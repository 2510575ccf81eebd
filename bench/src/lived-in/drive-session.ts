import type { Cairn } from '@cairn/engine';
import type { PlannedEvent, PlannedSession } from './lived-in-generator';

/** The kinds of call a session makes, as the event tables name them. */
export type EventType =
  | 'session-start'
  | 'user-prompt-submit'
  | 'tool-use'
  | 'memory-add'
  | 'session-end';

/** The clock `openCairn` reads (`now`): each event moves it to the event's planned instant. */
export interface BenchClock {
  at: number;
  now(): Date;
}

export function createClock(at = 0): BenchClock {
  const clock: BenchClock = { at, now: () => new Date(clock.at) };
  return clock;
}

/** Counts events that failed open (or adds that were refused), keeping the first message. */
export interface FailureTally {
  count: number;
  first: string | undefined;
}

type Timing = (type: EventType, ms: number) => void;

async function timedCall<T>(type: EventType, call: () => Promise<T>, onEvent?: Timing): Promise<T> {
  const started = performance.now();
  const value = await call();
  onEvent?.(type, performance.now() - started);
  return value;
}

function noteFailure(failures: FailureTally, type: EventType, message: string | undefined) {
  if (message === undefined) return;
  failures.count += 1;
  failures.first ??= `${type}: ${message}`;
}

const lifecycleFailure = (result: { failed?: { code: string; message: string } }) =>
  result.failed ? `${result.failed.code} ${result.failed.message}` : undefined;

/** One planned event: a prompt or a tool call through the lifecycle, or a unit filed as `memory_add`. */
async function driveEvent(
  cairn: Cairn,
  session: PlannedSession,
  event: PlannedEvent,
  failures: FailureTally,
  onEvent?: Timing,
): Promise<void> {
  const ids = { agentId: session.agentId, sessionKey: session.sessionKey };
  if (event.kind === 'prompt') {
    const result = await timedCall(
      'user-prompt-submit',
      () => cairn.lifecycle.userPromptSubmit({ ...ids, prompt: event.prompt }),
      onEvent,
    );
    noteFailure(failures, 'user-prompt-submit', lifecycleFailure(result));
  } else if (event.kind === 'tool') {
    const { toolName, input, output } = event;
    const result = await timedCall(
      'tool-use',
      () => cairn.lifecycle.toolUse({ ...ids, toolName, input, output }),
      onEvent,
    );
    noteFailure(failures, 'tool-use', lifecycleFailure(result));
  } else {
    const { text, category, review } = event;
    const source = `${session.agentId}:${session.sessionKey}`;
    const result = await timedCall(
      'memory-add',
      () => cairn.add({ text, category, review, source }),
      onEvent,
    );
    const refused = result.action === 'created' ? undefined : JSON.stringify(result).slice(0, 200);
    noteFailure(failures, 'memory-add', refused);
  }
}

/**
 * Plays one planned session through the in-process path OpenCode and
 * OpenClaw use (`cairn.lifecycle.*`), with units filed through the memory
 * API as an agent's `memory_add` does, the clock pinned to each event.
 */
export async function driveSession(
  cairn: Cairn,
  session: PlannedSession,
  clock: BenchClock,
  failures: FailureTally,
  onEvent?: Timing,
): Promise<void> {
  const ids = { agentId: session.agentId, sessionKey: session.sessionKey };
  clock.at = session.startAt;
  const start = await timedCall(
    'session-start',
    () =>
      cairn.lifecycle.sessionStart({
        ...ids,
        harness: session.agentId,
        threadKey: session.threadKey,
      }),
    onEvent,
  );
  noteFailure(failures, 'session-start', lifecycleFailure(start));
  for (const event of session.events) {
    clock.at = event.at;
    await driveEvent(cairn, session, event, failures, onEvent);
  }
  clock.at = session.endAt;
  const end = await timedCall('session-end', () => cairn.lifecycle.sessionEnd(ids), onEvent);
  noteFailure(failures, 'session-end', lifecycleFailure(end));
}
