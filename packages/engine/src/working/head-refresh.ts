import { condenseThread, type LineageStore } from '../lineage';
import type { HeadStore, SessionRecord } from './head-store';
import { GLOBAL_HEAD, refreshGlobalHead, refreshThreadHead } from './head-writer';
import type { LifecycleContext } from './lifecycle-context';

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
