import { existsSync } from 'node:fs';
import { CairnError } from '@cairn/core';
import {
  detectToolFailure,
  type FixPatternDetail,
  type HistoryRecorder,
  hasOpenFailureFlag,
  historyDatabasePath,
  historyScope,
  type KnownFix,
  loadHistoryRecorder,
  promoteVerifiedPattern,
  readSharedFixes,
  toolEventFromRecorded,
  writeSharedFixes,
} from '../history';
import type { AppendedEntry } from '../lineage';
import type { SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { logLifecycleFailure } from './lifecycle-log';

export { DEFAULT_HISTORY_NAMESPACE } from '../history';

/** What one project's tool-event history holds between events: the recorder, loaded on first need. */
interface ToolHistoryState {
  ctx: LifecycleContext;
  authorId: () => string;
  /** Failures and patterns are recorded in the configured namespace (`memory.namespace`). */
  scope: ReturnType<typeof historyScope>;
  recorder?: HistoryRecorder;
}

/** A tool event as the lifecycle hands it over. */
export interface ToolEvent {
  toolName: string;
  input?: unknown;
  output?: unknown;
}

/**
 * The tool-event branch of task history. A successful event in a
 * session with no open failure costs the failure check and one stat of the
 * session's flag (history/open-failure-flag.ts): history.db stays closed
 * and the recorder (history's loadHistoryRecorder) is not even loaded. Otherwise
 * the event goes to history.db, and a failure with a known signature is
 * answered with its best fix pattern, which the event injects as a pack
 * (the post-tool profile).
 */
export function createToolHistory(ctx: LifecycleContext, authorId: () => string) {
  const state: ToolHistoryState = {
    ctx,
    authorId,
    scope: historyScope(ctx.rootDir, ctx.settings.memory.namespace),
  };
  return {
    /** Records the event; resolves to the fix to show (a failure whose signature has a pattern). */
    record: (session: SessionRecord, entry: AppendedEntry, event: ToolEvent) =>
      recordToolEvent(state, session, entry, event),
    /** A session that ends leaves its unresolved failures abandoned, and shares its clone's fixes. */
    endSession: (session: SessionRecord) => endToolHistorySession(state, session),
    close: (): void => state.recorder?.close(),
  };
}

async function loadRecorder(state: ToolHistoryState): Promise<HistoryRecorder> {
  if (state.recorder) return state.recorder;
  const createHistoryRecorder = await loadHistoryRecorder();
  state.recorder ??= createHistoryRecorder(state.ctx.rootDir);
  return state.recorder;
}

/** What could not be done is logged (doctor shows it); the event goes on. */
function logTrouble(
  state: ToolHistoryState,
  session: SessionRecord,
  event: string,
  error: unknown,
  prefix = '',
): void {
  logLifecycleFailure(state.ctx.rootDir, {
    at: state.ctx.now().toISOString(),
    event,
    agentId: session.agentId,
    sessionKey: session.sessionKey,
    code: CairnError.isInstance(error) ? error.code : 'INTERNAL',
    message: `${prefix}${error instanceof Error ? error.message : String(error)}`,
  });
}

/**
 * A pattern this event turned verified becomes a draft `decision` unit
 * (docs/HISTORY.md#promotion-and-review). Only such an event touches the
 * memory store; its trouble is logged and costs the event's injection nothing.
 */
async function promote(
  state: ToolHistoryState,
  session: SessionRecord,
  verified: FixPatternDetail[],
): Promise<void> {
  for (const pattern of verified) {
    try {
      await promoteVerifiedPattern(state.ctx.memory, state.ctx.rootDir, pattern);
    } catch (error) {
      logTrouble(state, session, 'tool-use', error);
    }
  }
}

/** Imports the other clones' `fixes/<author>.md` (docs/TEAMS.md); an unchanged file costs a read. */
async function importShared(state: ToolHistoryState): Promise<void> {
  const files = await readSharedFixes(state.ctx.rootDir, state.authorId());
  if (files.length === 0) return;
  // A file that does not parse imports nothing; `cairn doctor` names it and the fix.
  (await loadRecorder(state)).importShared(files, state.scope.repo, state.ctx.now().toISOString());
}

/** Imports the others' files, then writes this clone's own when what it shares changed. */
async function shareFixes(state: ToolHistoryState, session: SessionRecord): Promise<void> {
  try {
    await importShared(state);
    const own = (await loadRecorder(state)).ownShared();
    await writeSharedFixes(state.ctx.memory.writer, state.authorId(), own);
  } catch (error) {
    logTrouble(state, session, 'session-end', error, 'sharing fix patterns: ');
  }
}

async function recordToolEvent(
  state: ToolHistoryState,
  session: SessionRecord,
  entry: AppendedEntry,
  event: ToolEvent,
): Promise<KnownFix | undefined> {
  const { ctx, scope } = state;
  const tool = toolEventFromRecorded(event.toolName, event.input, event.output);
  const { agentId, sessionKey } = session;
  const failed = detectToolFailure(tool).failed;
  if (!failed && !hasOpenFailureFlag(ctx.rootDir, agentId, sessionKey)) return undefined;
  // A failure may be one another clone shares a fix for: its file is read first.
  if (failed) await importShared(state);
  const { fix, verified } = (await loadRecorder(state)).record({
    agentId,
    sessionKey,
    threadKey: session.threadKey,
    repo: scope.repo,
    namespace: scope.namespace,
    eventId: `T:${entry.transcriptId}:${entry.seq}`,
    toolName: event.toolName,
    input: event.input,
    output: event.output,
    at: ctx.now().toISOString(),
  });
  if (verified.length > 0) {
    await promote(state, session, verified);
    await shareFixes(state, session);
  }
  return fix;
}

async function endToolHistorySession(
  state: ToolHistoryState,
  session: SessionRecord,
): Promise<void> {
  const { rootDir } = state.ctx;
  if (hasOpenFailureFlag(rootDir, session.agentId, session.sessionKey))
    (await loadRecorder(state)).endSession(session, state.ctx.now().toISOString());
  if (existsSync(historyDatabasePath(rootDir))) await shareFixes(state, session);
}
