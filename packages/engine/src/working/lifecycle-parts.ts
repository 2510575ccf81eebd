import { CairnError } from '@cairn/core';
import { createSessionDigests } from '../history';
import { assertProjectLayout, defaultThreadKey, folderProjectId } from '../store';
import { createHeadRefresh } from './head-refresh';
import { HeadStore, type SessionRecord } from './head-store';
import {
  EMPTY_RESULT,
  type LifecycleContext,
  type LifecycleResult,
  lazyLineage,
} from './lifecycle-context';
import { createToolHistory } from './lifecycle-history';
import { logLifecycleFailure } from './lifecycle-log';
import { createRecall } from './recall';
import { createSessionSummaries } from './session-summaries';
import { captureFinalAnswer, createTranscriptCapture } from './transcript-capture';

type Ids = { agentId: string; sessionKey: string };

/**
 * The session's record if it has one, else the record its first event
 * would start, without starting it (`cairn pack --profile` reads only).
 */
function peekSession(
  ctx: LifecycleContext,
  heads: HeadStore,
  ids: Ids,
  threadKey?: string,
): SessionRecord {
  const existing = heads.sessions.session(ids.agentId, ids.sessionKey);
  if (existing && (!threadKey || existing.threadKey === threadKey)) return existing;
  const project = ctx.settings.projectId || heads.peekProjectId(folderProjectId(ctx.rootDir));
  return {
    agentId: ids.agentId,
    sessionKey: ids.sessionKey,
    threadKey: threadKey ?? defaultThreadKey(project, ctx.rootDir, ctx.rootDir),
    harness: null,
    cwd: null,
    epoch: existing?.epoch ?? 0,
    startedAt: ctx.now().toISOString(),
  };
}

/** One project's lifecycle state: the stores, each opened on first use. */
interface PartsState {
  ctx: LifecycleContext;
  lineage: ReturnType<typeof lazyLineage>;
  heads?: HeadStore;
  parts?: EventParts;
}

type SessionStart = { harness?: string; cwd?: string; threadKey?: string };

/**
 * The parts behind the lifecycle events, built on first use so an event
 * opens only the stores it needs: the head store (sessions, leases,
 * injections, thread facts), the lineage, transcript capture, recall,
 * summaries and the head refresh.
 */
export function createLifecycleParts(ctx: LifecycleContext) {
  const state: PartsState = { ctx, lineage: lazyLineage(ctx) };
  return {
    ctx,
    heads: () => headStore(state),
    parts: () => eventParts(state),
    lineage: state.lineage,
    guarded: (event: string, ids: Ids, run: () => Promise<LifecycleResult>) =>
      guarded(state, event, ids, run),
    logFailure: (event: string, ids: Ids, error: unknown) => logFailure(ctx, event, ids, error),
    sessionFor: (ids: Ids, start?: SessionStart) => sessionFor(state, ids, start),
    peekSession: (ids: Ids, threadKey?: string) =>
      peekSession(ctx, headStore(state), ids, threadKey),
    close: () => closeParts(state),
  };
}

function headStore(state: PartsState): HeadStore {
  state.heads ??= new HeadStore(state.ctx.rootDir);
  return state.heads;
}

function buildParts(state: PartsState) {
  const { ctx, lineage } = state;
  const capture = createTranscriptCapture(ctx, lineage.store);
  return {
    capture,
    finalAnswer: (session: SessionRecord, answer: string | null | undefined) =>
      captureFinalAnswer(lineage.store(), capture, session, answer),
    recall: createRecall(ctx, lineage.store),
    summaries: createSessionSummaries(ctx, headStore(state), lineage.store),
    headRefresh: createHeadRefresh(ctx, headStore(state), lineage.store),
    digests: createSessionDigests(
      {
        ...ctx,
        namespace: ctx.settings.memory.namespace,
        store: lineage.store,
        factsOf: (agent, thread, nodeId) =>
          headStore(state)
            .threads.recentFacts(agent, thread)
            .find((f) => f.nodeId === nodeId)?.facts,
      },
      (agent, key) => headStore(state).sessions.session(agent, key),
    ),
    history: createToolHistory(ctx, () => headStore(state).authorId()),
  };
}

type EventParts = ReturnType<typeof buildParts>;

function eventParts(state: PartsState): EventParts {
  state.parts ??= buildParts(state);
  return state.parts;
}

function logFailure(ctx: LifecycleContext, event: string, ids: Ids, error: unknown) {
  const code = CairnError.isInstance(error) ? error.code : 'INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  const { agentId, sessionKey } = ids;
  logLifecycleFailure(ctx.rootDir, {
    at: ctx.now().toISOString(),
    event,
    agentId,
    sessionKey,
    code,
    message,
  });
  return { code, message };
}

/**
 * Runs an event: the project's `.cairn/` checked for links, deferred head
 * writes first, and any failure logged and answered empty. With
 * `memoryEnabled: false` (the master switch) an event records and
 * injects nothing; its input was still checked.
 */
async function guarded(
  state: PartsState,
  event: string,
  ids: Ids,
  run: () => Promise<LifecycleResult>,
): Promise<LifecycleResult> {
  const { ctx } = state;
  if (ctx.settings.memoryEnabled === false) return EMPTY_RESULT;
  try {
    assertProjectLayout(ctx.rootDir, { memoryFiles: false });
    await eventParts(state).headRefresh.settlePending();
    return await run();
  } catch (error) {
    return { ...EMPTY_RESULT, failed: logFailure(ctx, event, ids, error) };
  }
}

/** The setting, else the id the first session stored (the folder's name then). */
function projectId(state: PartsState): string {
  const { ctx } = state;
  return ctx.settings.projectId || headStore(state).projectId(folderProjectId(ctx.rootDir));
}

/** The session's record, started on its first event (default thread: project and branch). */
function sessionFor(state: PartsState, ids: Ids, start?: SessionStart): SessionRecord {
  const { ctx } = state;
  const existing = headStore(state).sessions.session(ids.agentId, ids.sessionKey);
  if (existing) return existing;
  return headStore(state).sessions.startSession({
    agentId: ids.agentId,
    sessionKey: ids.sessionKey,
    threadKey:
      start?.threadKey ??
      defaultThreadKey(projectId(state), start?.cwd ?? ctx.rootDir, ctx.rootDir),
    harness: start?.harness ?? null,
    cwd: start?.cwd ?? null,
    startedAt: ctx.now().toISOString(),
  });
}

function closeParts(state: PartsState): void {
  state.parts?.recall.close();
  state.parts?.history.close();
  state.lineage.close();
  state.heads?.close();
}

export type LifecycleParts = ReturnType<typeof createLifecycleParts>;
