import {
  getDefaultMemoryScaffold,
  missingAsUndefined,
  randomUuid,
  readMemoryFileExact,
  threadHeadFileName,
  wellFormedText,
  writeMemoryFileExact,
} from '@cairn/core';
import { withMemoryFileLock } from '../memory-lock';
import {
  type HeadUnit,
  renderHeadRegion,
  replaceHeadRegion,
  THREAD_HEAD_REGION,
} from './head-render';
import type { HeadStore } from './head-store';
import { threadFileKey } from './thread-key';
import { emptyThreadState, foldSummary, renderThreadHead } from './thread-state';

/** MEMORY.md is shared by every agent and harness: one head record guards it. */
export const GLOBAL_HEAD = { agentId: '*', scope: 'head:MEMORY.md' } as const;

export interface LeaseOptions {
  /** Tries before the write is deferred (it is retried on the next event). Default 40. */
  attempts?: number;
  /** How long a lease holds if its owner dies mid-write. Default 10 s. */
  ttlMs?: number;
}

export type WriteOutcome =
  | { applied: true; keptUserEdit: boolean }
  | { applied: false; deferred: true; holder: string };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `write` holding the lease of (agentId, scope). A busy lease is not a
 * failure: the call backs off and retries, and if the lease stays busy the
 * write is recorded as pending for the next event. A render that succeeds
 * settles every pending write requested before it started (it supersedes them).
 */
export async function writeUnderLease(
  store: HeadStore,
  target: { agentId: string; scope: string },
  write: (lastRendered: string | undefined) => Promise<{ rendered: string; keptUserEdit: boolean }>,
  options: LeaseOptions = {},
): Promise<WriteOutcome> {
  const owner = `${process.pid}:${randomUuid()}`;
  const attempts = options.attempts ?? 40;
  let holder = '';
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const startedMs = Date.now();
    const lease = store.acquire(
      target.agentId,
      target.scope,
      owner,
      options.ttlMs ?? 10_000,
      startedMs,
    );
    if (lease.ok) {
      let rendered: string | undefined;
      try {
        const result = await write(lease.lastRendered);
        rendered = result.rendered;
        store.settle(target.agentId, target.scope, startedMs);
        return { applied: true, keptUserEdit: result.keptUserEdit };
      } finally {
        store.release(target.agentId, target.scope, owner, rendered);
      }
    }
    holder = lease.holder;
    // Jittered backoff so concurrent writers do not retry in lockstep.
    await pause(10 + Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 5)));
  }
  store.defer(target.agentId, target.scope, `lease held by ${holder}`);
  return { applied: false, deferred: true, holder };
}

// Exact: bytes of the user's text that are not UTF-8 are written back unchanged.
// Only a missing file starts from the scaffold: an unreadable one is never replaced.
const readOrUndefined = (rootDir: string, path: string) =>
  readMemoryFileExact(rootDir, path).catch(missingAsUndefined);

/**
 * Read-modify-write that does not lose an edit made by someone else (a
 * person in an editor) between the read and the write: the file is read
 * again just before the atomic rename, and the update is recomputed if it
 * changed. Cairn's own writers are already serialized by the lease.
 */
async function rewriteUnlessChanged(
  rootDir: string,
  path: string,
  update: (current: string | undefined) => { content: string; keptUserEdit: boolean },
): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    const before = await readOrUndefined(rootDir, path);
    const next = update(before);
    if (attempt < 5 && (await readOrUndefined(rootDir, path)) !== before) continue;
    await writeMemoryFileExact(rootDir, path, next.content);
    return next.keptUserEdit;
  }
}

/** Re-renders the managed region of MEMORY.md from every thread head and the approved units. */
export function refreshGlobalHead(
  rootDir: string,
  store: HeadStore,
  input: { units: HeadUnit[]; budgetTokens: number; now: () => Date },
  options?: LeaseOptions,
): Promise<WriteOutcome> {
  return writeUnderLease(
    store,
    GLOBAL_HEAD,
    async (lastRendered) => {
      const region = wellFormedText(
        renderHeadRegion({
          threads: store.threads(),
          units: input.units,
          budgetTokens: input.budgetTokens,
          now: input.now().toISOString(),
        }),
      );
      // The lock `cairn write` takes too: the file is read inside it, so an
      // acknowledged write is merged, never overwritten with older text.
      const keptUserEdit = await withMemoryFileLock(rootDir, () =>
        rewriteUnlessChanged(rootDir, 'MEMORY.md', (current) =>
          replaceHeadRegion(current ?? getDefaultMemoryScaffold(), region, lastRendered),
        ),
      );
      return { rendered: region, keptUserEdit };
    },
    options,
  );
}

/**
 * A thread head file written before the managed region existed: Cairn's
 * whole render, no user text (it is replaced, not appended to).
 */
const UNMARKED_THREAD_HEAD = /^# Thread [^\n]*\n\n<!-- cairn:thread agent=/;

/**
 * Re-renders one thread head from the facts of its temporal nodes, under
 * the thread's own lease. The head is recomputed, not patched, so a render
 * that was deferred is superseded by the next one that succeeds. Like
 * MEMORY.md, only the managed region of the file is Cairn's: the user's
 * text around it is kept, and an edit inside it is kept below it.
 */
export function refreshThreadHead(
  rootDir: string,
  store: HeadStore,
  target: { agentId: string; threadKey: string; now: () => Date },
  options?: LeaseOptions,
): Promise<WriteOutcome> {
  const { agentId, threadKey } = target;
  const file = threadHeadFileName(threadFileKey(agentId, threadKey));
  return writeUnderLease(
    store,
    { agentId, scope: `thread:${threadKey}` },
    async (lastRendered) => {
      let state = emptyThreadState(agentId, threadKey, target.now().toISOString());
      for (const entry of store.recentFacts(agentId, threadKey)) {
        state = foldSummary(state, entry.facts, entry.nodeId, entry.at, false);
      }
      state = { ...state, sessions: store.sessionCount(agentId, threadKey) };
      store.putThread(state);
      const rendered = wellFormedText(renderThreadHead(state));
      const keptUserEdit = await rewriteUnlessChanged(rootDir, file, (current) => {
        const base = current === undefined || UNMARKED_THREAD_HEAD.test(current) ? '' : current;
        return replaceHeadRegion(base, rendered, lastRendered, THREAD_HEAD_REGION);
      });
      return { rendered, keptUserEdit };
    },
    options,
  );
}
