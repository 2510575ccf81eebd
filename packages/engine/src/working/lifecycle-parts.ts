import { CairnError } from '@cairn/core';
import { createSessionDigests } from '../history/session-digest';
import { assertProjectLayout } from '../project-layout';
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
import { defaultThreadKey, folderProjectId } from './thread-key';
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

/**
 * The parts behind the lifecycle events, built on first use so an event
 * opens only the stores it needs: the head store (sessions, leases,
 * injections, thread facts), the lineage, transcript capture, recall,
 * summaries and the head refresh.
 */
export function createLifecycleParts(ctx: LifecycleContext) {
  let heads: HeadStore | undefined;
  const headStore = () => (heads ??= new HeadStore(ctx.rootDir));
  const lineage = lazyLineage(ctx);
  let parts: ReturnType<typeof build> | undefined;
  const build = () => {
    const capture = createTranscriptCapture(ctx, lineage.store);
    return {
      capture,
      finalAnswer: (session: SessionRecord, answer: string | null | undefined) =>
        captureFinalAnswer(lineage.store(), capture, session, answer),
      recall: createRecall(ctx, lineage.store),
      summaries: createSessionSummaries(ctx, headStore(), lineage.store),
      headRefresh: createHeadRefresh(ctx, headStore(), lineage.store),
      digests: createSessionDigests(
        {
          ...ctx,
          namespace: ctx.settings.memory.namespace,
          store: lineage.store,
          factsOf: (agent, thread, nodeId) =>
            headStore()
              .threads.recentFacts(agent, thread)
              .find((f) => f.nodeId === nodeId)?.facts,
        },
        (agent, key) => headStore().sessions.session(agent, key),
      ),
      history: createToolHistory(ctx, () => headStore().authorId()),
    };
  };
  const get = () => (parts ??= build());

  function logFailure(event: string, ids: Ids, error: unknown) {
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
    event: string,
    ids: Ids,
    run: () => Promise<LifecycleResult>,
  ): Promise<LifecycleResult> {
    if (ctx.settings.memoryEnabled === false) return EMPTY_RESULT;
    try {
      assertProjectLayout(ctx.rootDir, { memoryFiles: false });
      await get().headRefresh.settlePending();
      return await run();
    } catch (error) {
      return { ...EMPTY_RESULT, failed: logFailure(event, ids, error) };
    }
  }

  /** The setting, else the id the first session stored (the folder's name then). */
  function projectId(): string {
    return ctx.settings.projectId || headStore().projectId(folderProjectId(ctx.rootDir));
  }

  /** The session's record, started on its first event (default thread: project and branch). */
  function sessionFor(
    ids: Ids,
    start?: { harness?: string; cwd?: string; threadKey?: string },
  ): SessionRecord {
    const existing = headStore().sessions.session(ids.agentId, ids.sessionKey);
    if (existing) return existing;
    return headStore().sessions.startSession({
      agentId: ids.agentId,
      sessionKey: ids.sessionKey,
      threadKey:
        start?.threadKey ?? defaultThreadKey(projectId(), start?.cwd ?? ctx.rootDir, ctx.rootDir),
      harness: start?.harness ?? null,
      cwd: start?.cwd ?? null,
      startedAt: ctx.now().toISOString(),
    });
  }

  return {
    ctx,
    heads: headStore,
    parts: get,
    lineage,
    guarded,
    logFailure,
    sessionFor,
    peekSession: (ids: Ids, threadKey?: string) => peekSession(ctx, headStore(), ids, threadKey),
    close(): void {
      parts?.recall.close();
      parts?.history.close();
      lineage.close();
      heads?.close();
    },
  };
}

export type LifecycleParts = ReturnType<typeof createLifecycleParts>;
