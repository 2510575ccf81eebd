import { condenseThread, type LineageStore } from '../lineage';
import type { HeadStore, SessionRecord } from './head-store';
import { GLOBAL_HEAD, refreshGlobalHead, refreshThreadHead } from './head-writer';
import type { LifecycleContext } from './lifecycle-context';

const CONDENSE_PASSES = 4;

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
  /** The approved decisions and preferences the head keeps as durable constraints. */
  async function headUnits() {
    return (await ctx.memory.list({ review: 'approved' }))
      .filter((u) => u.category === 'decision' || u.category === 'preference')
      .map((u) => ({ memoryId: u.memoryId, text: u.text, updatedAt: u.updatedAt ?? '' }));
  }

  const globalHead = async (attempts?: number) =>
    refreshGlobalHead(
      ctx.memory.writer,
      heads,
      { units: await headUnits(), budgetTokens: ctx.settings.limits.headTokens, now: ctx.now },
      attempts ? { attempts } : undefined,
    );

  /** Condenses the thread while it holds more roots than the threshold (one node per pass). */
  async function condense(session: SessionRecord): Promise<void> {
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

  async function refresh(session: SessionRecord): Promise<void> {
    await condense(session);
    await refreshThreadHead(ctx.memory.writer, heads, {
      agentId: session.agentId,
      threadKey: session.threadKey,
      now: ctx.now,
    });
    await globalHead();
  }

  /** Deferred head writes are retried on the next event. */
  async function settlePending(): Promise<void> {
    for (const write of heads.leases.pending()) {
      if (write.scope === GLOBAL_HEAD.scope) {
        await globalHead(3);
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

  return { refresh, settlePending };
}
