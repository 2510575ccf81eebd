import {
  getDefaultMemoryScaffold,
  missingAsUndefined,
  randomUuid,
  readMemoryFileExact,
  wellFormedText,
} from '@cairn/core';
import {
  ensureCairnGitignore,
  threadHeadFile,
  type WorkspaceWriter,
  withMemoryFileLock,
} from '../store';
import {
  currentHeadRegion,
  type HeadUnit,
  renderHeadRegion,
  replaceHeadRegion,
  THREAD_HEAD_REGION,
} from './head-render';
import type { HeadStore } from './head-store';
import { regionOwner, renderTeamHeadRegion, threadHeadOfOtherClone } from './team-head';
import {
  emptyThreadState,
  foldSummary,
  renderThreadHead,
  type ThreadHeadState,
} from './thread-state';

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
  | { applied: false; deferred: true; holder: string }
  | { applied: false; readOnly: true };

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
    const lease = store.leases.acquire(
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
        store.leases.settle(target.agentId, target.scope, startedMs);
        return { applied: true, keptUserEdit: result.keptUserEdit };
      } finally {
        store.leases.release(target.agentId, target.scope, owner, rendered);
      }
    }
    holder = lease.holder;
    // Jittered backoff so concurrent writers do not retry in lockstep.
    await pause(10 + Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 5)));
  }
  store.leases.defer(target.agentId, target.scope, `lease held by ${holder}`);
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
 * changed. Cairn's own writers are already serialized by the lease. An
 * update that returns undefined writes nothing.
 */
async function rewriteUnlessChanged(
  writer: WorkspaceWriter,
  path: string,
  update: (current: string | undefined) => { content: string; keptUserEdit: boolean } | undefined,
): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    const before = await readOrUndefined(writer.rootDir, path);
    const next = update(before);
    if (attempt < 5 && (await readOrUndefined(writer.rootDir, path)) !== before) continue;
    if (next === undefined) return false;
    await writer.writeFile(path, next.content);
    return next.keptUserEdit;
  }
}

/**
 * A render the backend refuses (`readonly`) is skipped, not deferred: no
 * file is written and nothing is left pending, and pending writes of the
 * scope are settled, since a head is recomputed from state, not patched,
 * the first render after the backend is writable again supersedes them.
 */
function skipReadOnly(store: HeadStore, target: { agentId: string; scope: string }): WriteOutcome {
  store.leases.settle(target.agentId, target.scope, Date.now());
  return { applied: false, readOnly: true };
}

/** This clone's personal head: its threads, next actions, constraints and lineage (heads.db only). */
export const LOCAL_HEAD = { agentId: '*', scope: 'head:local' } as const;

/**
 * The team region for MEMORY.md's current text, or undefined when the file
 * is to stay as it is: the region already holds it, or it holds a personal
 * head another clone committed (see team-head.ts).
 */
function teamRegionUpdate(
  current: string | undefined,
  team: string,
  lastRendered: string | undefined,
  knownNodes: (ids: string[]) => Set<string>,
): { content: string; keptUserEdit: boolean } | undefined {
  const content = current ?? getDefaultMemoryScaffold();
  const raw = currentHeadRegion(content);
  if (raw !== undefined) {
    // As replaceHeadRegion reads it: an editor that turned the file to CRLF did not edit it.
    const region = raw.replace(/\r\n/g, '\n').replace(/^\n/, '').replace(/\n$/, '');
    const owner = regionOwner(region, lastRendered, knownNodes);
    if (owner === 'other' || region === team) return undefined;
    // An edit inside the region is kept below it; Cairn's own renders are replaced.
    const previous = owner === 'edited' ? (lastRendered ?? '') : region;
    return replaceHeadRegion(content, team, previous);
  }
  return replaceHeadRegion(content, team, lastRendered);
}

/**
 * Re-renders the heads of Tier 1: this clone's personal head (every thread
 * head and the approved units) into heads.db, and the team head (the
 * approved units only) into MEMORY.md's managed region.
 */
export async function refreshGlobalHead(
  writer: WorkspaceWriter,
  store: HeadStore,
  input: { units: HeadUnit[]; budgetTokens: number; now: () => Date },
  options?: LeaseOptions,
): Promise<WriteOutcome> {
  const personal = () =>
    wellFormedText(
      renderHeadRegion({
        threads: store.threads.list(),
        units: input.units,
        budgetTokens: input.budgetTokens,
        now: input.now().toISOString(),
      }),
    );
  if (!writer.writable) {
    // Like a thread's state, the personal head is state, not a memory file: it stays current.
    store.leases.keep(LOCAL_HEAD.agentId, LOCAL_HEAD.scope, personal());
    return skipReadOnly(store, GLOBAL_HEAD);
  }
  return writeUnderLease(
    store,
    GLOBAL_HEAD,
    async (lastRendered) => {
      store.leases.keep(LOCAL_HEAD.agentId, LOCAL_HEAD.scope, personal());
      const team = wellFormedText(
        renderTeamHeadRegion({ units: input.units, budgetTokens: input.budgetTokens }),
      );
      // The lock `cairn write` takes too: the file is read inside it, so an
      // acknowledged write is merged, never overwritten with older text.
      const keptUserEdit = await withMemoryFileLock(writer.rootDir, () =>
        rewriteUnlessChanged(writer, 'MEMORY.md', (current) =>
          teamRegionUpdate(current, team, lastRendered, (ids) => store.threads.knownNodes(ids)),
        ),
      );
      return { rendered: team, keptUserEdit };
    },
    options,
  );
}

/** A thread's state recomputed from the facts of its temporal nodes. */
function threadStateFromFacts(
  store: HeadStore,
  target: { agentId: string; threadKey: string; now: () => Date },
): ThreadHeadState {
  const { agentId, threadKey } = target;
  let state = emptyThreadState(agentId, threadKey, target.now().toISOString());
  for (const entry of store.threads.recentFacts(agentId, threadKey)) {
    state = foldSummary(state, entry.facts, entry.nodeId, entry.at, false);
  }
  return { ...state, sessions: store.threads.sessionCount(agentId, threadKey) };
}

/** The text inside a thread head file's managed region, or undefined without one. */
function threadRegion(content: string): string | undefined {
  const start = content.indexOf(THREAD_HEAD_REGION.start);
  const end = content.indexOf(THREAD_HEAD_REGION.end);
  if (start === -1 || end < start) return undefined;
  return content.slice(start + THREAD_HEAD_REGION.start.length, end).replace(/\r\n/g, '\n');
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
export async function refreshThreadHead(
  writer: WorkspaceWriter,
  store: HeadStore,
  target: { agentId: string; threadKey: string; now: () => Date },
  options?: LeaseOptions,
): Promise<WriteOutcome> {
  const { agentId, threadKey } = target;
  const scope = `thread:${threadKey}`;
  if (!writer.writable) {
    // The thread state is state (heads.db), not a memory file: it stays current for reads.
    store.threads.putThread(threadStateFromFacts(store, target));
    return skipReadOnly(store, { agentId, scope });
  }
  const file = threadHeadFile(agentId, threadKey);
  return writeUnderLease(
    store,
    { agentId, scope },
    async (lastRendered) => {
      const state = threadStateFromFacts(store, target);
      store.threads.putThread(state);
      const rendered = wellFormedText(renderThreadHead(state));
      let created = false;
      const keptUserEdit = await rewriteUnlessChanged(writer, file, (current) => {
        created = current === undefined;
        const base = current === undefined || UNMARKED_THREAD_HEAD.test(current) ? '' : current;
        const region = threadRegion(base);
        const known = (ids: string[]) => store.threads.knownNodes(ids);
        // A teammate's committed render of a thread with the same key stays theirs.
        if (region && threadHeadOfOtherClone(region, lastRendered, known)) return undefined;
        return replaceHeadRegion(base, rendered, lastRendered, THREAD_HEAD_REGION);
      });
      // A project made before thread heads were kept per machine learns to ignore them.
      if (created) await ensureCairnGitignore(writer.rootDir);
      return { rendered, keptUserEdit };
    },
    options,
  );
}
