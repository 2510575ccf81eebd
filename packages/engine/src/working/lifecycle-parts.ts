import { CairnError } from '@cairn/core';
import { createSessionDigests } from '../history';
import { condenseThread, type LineageStore } from '../lineage';
import { assertProjectLayout, defaultThreadKey, folderProjectId } from '../store';
import { HeadStore, type SessionRecord } from './head-store';
import { GLOBAL_HEAD, refreshGlobalHead, refreshThreadHead } from './head-writer';
import {
  captureFinalAnswer,
  createTranscriptCapture,
  EMPTY_RESULT,
  type LifecycleContext,
  type LifecycleResult,
  lazyLineage,
} from './lifecycle-context';
import { createToolHistory } from './lifecycle-history';
import { logLifecycleFailure } from './lifecycle-log';
import { createSessionSummaries } from './session-summaries';
import { createRecall } from './transcript-recall';

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

const CONDENSE_PASSES = 4;

/** One project's heads, and the lineage whose threads they summarise. */
interface HeadRefreshState {
  ctx: LifecycleContext;
  heads: HeadStore;
  store: () => LineageStore;
}

/**
 * Keeps Tier 2 and Tier 1 current after a summary: condenses the thread,
 * re-renders its head and MEMORY.md's managed region, and retries head
 * writes that were deferred (a conflicting lease) on the next event.
 */
export function createHeadRefresh(
  ctx: LifecycleContext,
  heads: HeadStore,
  store: () => LineageStore,
) {
  const state: HeadRefreshState = { ctx, heads, store };
  return {
    refresh: (session: SessionRecord) => refreshHeads(state, session),
    /** Deferred head writes are retried on the next event. */
    settlePending: () => settlePending(state),
  };
}

/** The approved decisions and preferences the head keeps as durable constraints. */
async function headUnits(ctx: LifecycleContext) {
  return (await ctx.memory.list({ review: 'approved' }))
    .filter((u) => u.category === 'decision' || u.category === 'preference')
    .map((u) => ({ memoryId: u.memoryId, text: u.text, updatedAt: u.updatedAt ?? '' }));
}

async function refreshGlobal({ ctx, heads }: HeadRefreshState, attempts?: number): Promise<void> {
  await refreshGlobalHead(
    ctx.memory.writer,
    heads,
    { units: await headUnits(ctx), budgetTokens: ctx.settings.limits.headTokens, now: ctx.now },
    attempts ? { attempts } : undefined,
  );
}

/** Condenses the thread while it holds more roots than the threshold (one node per pass). */
async function condense({ ctx, store }: HeadRefreshState, session: SessionRecord): Promise<void> {
  const threshold = ctx.settings.lineage.condenseThreshold;
  for (let pass = 0; pass < CONDENSE_PASSES; pass += 1) {
    const result = await condenseThread(store(), {
      agentId: session.agentId,
      threadKey: session.threadKey,
      threshold,
    });
    if (!result) return;
  }
}

async function refreshHeads(state: HeadRefreshState, session: SessionRecord): Promise<void> {
  await condense(state, session);
  await refreshThreadHead(state.ctx.memory.writer, state.heads, {
    agentId: session.agentId,
    threadKey: session.threadKey,
    now: state.ctx.now,
  });
  await refreshGlobal(state);
}

async function settlePending(state: HeadRefreshState): Promise<void> {
  const { ctx, heads } = state;
  for (const write of heads.leases.pending()) {
    if (write.scope === GLOBAL_HEAD.scope) {
      await refreshGlobal(state, 3);
    } else if (write.scope.startsWith('thread:')) {
      await refreshThreadHead(
        ctx.memory.writer,
        heads,
        { agentId: write.agentId, threadKey: write.scope.slice(7), now: ctx.now },
        { attempts: 3 },
      );
    }
  }
}
