import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  CairnError,
  type CairnSettings,
  cairnStatePath,
  checkAgentId,
  checkThreadKey,
  formatError,
  type LifecycleApi,
} from '@cairn/core';
import type { MemoryApi, WorkingApi, WorkingHealth } from './cairn-api';
import { embedderFromSettings } from './embeddings';
import { type SharedFixesSync, syncSharedFixes } from './history';
import {
  type ExpandOptions,
  expandNode,
  type LineageAgent,
  type NodeExpansion,
  openLineageStore,
} from './lineage';
import type { WorkspaceWriter } from './store';
import {
  clearLifecycleFailures,
  createLifecycle,
  HeadStore,
  type Lifecycle,
  LOCAL_HEAD,
  lifecycleFailureFix,
  recentLifecycleFailures,
  renderThreadHead,
  type ThreadHeadState,
} from './working';

export type { WorkingApi, WorkingHealth } from './cairn-api';

/** What the working part of one project holds: its settings, and its lifecycle once opened. */
export interface WorkingState {
  rootDir: string;
  settings: CairnSettings;
  memory: MemoryApi;
  now: () => Date;
  env: NodeJS.ProcessEnv;
  /** Starts a due insight extraction run without waiting (see OpenCairnOptions). */
  scheduleMaintenance: (rootDir: string) => void;
  /** The lifecycle's stores, opened by the first event. */
  lifecycle?: Lifecycle;
}

function events(state: WorkingState): Lifecycle {
  const { rootDir, settings, memory, now, env } = state;
  const embedder = () => embedderFromSettings(settings, rootDir, env);
  state.lifecycle ??= createLifecycle({ rootDir, settings, memory, now, embedder, env });
  return state.lifecycle;
}

const hasDatabase = (rootDir: string, name: string) =>
  existsSync(join(cairnStatePath(rootDir), name));

function withHeads<T>(rootDir: string, run: (store: HeadStore) => T): T {
  const store = new HeadStore(rootDir);
  try {
    return run(store);
  } finally {
    store.close();
  }
}

/** The lifecycle events, each through the project's lifecycle; a session end may start maintenance. */
function lifecycleApi(state: WorkingState): LifecycleApi {
  const { rootDir, settings, now } = state;
  return {
    sessionStart: (input) => events(state).sessionStart(input),
    userPromptSubmit: (input) => events(state).userPromptSubmit(input),
    toolUse: (input) => events(state).toolUse(input),
    preCompaction: (input) => events(state).preCompaction(input),
    compactionComplete: (input) => events(state).compactionComplete(input),
    sessionEnd: async (input) => {
      const result = await events(state).sessionEnd(input);
      // Insight extraction when due (docs/MAINTENANCE.md): one small read here, the run elsewhere.
      // Maintenance loads here, at a session end, not with every other event.
      const { isDueCheap } = await import('./maintenance');
      if (isDueCheap(rootDir, settings, now())) state.scheduleMaintenance(rootDir);
      return result;
    },
  };
}

/** See `WorkingApi.expand`. */
export function expand(
  state: WorkingState,
  nodeId: string,
  agentId: string,
  options: ExpandOptions = {},
): NodeExpansion {
  checkAgentId(agentId);
  // Reading must not create a database in a project that has no history yet.
  if (!hasDatabase(state.rootDir, 'lineage.db')) {
    throw new CairnError('NOT_FOUND', `No temporal node ${nodeId} for agent ${agentId}`, {
      hint: 'this project has no lineage yet: lifecycle events create it',
    });
  }
  const store = openLineageStore(state.rootDir, { now: state.now });
  try {
    return expandNode(store, nodeId, agentId, options);
  } finally {
    store.close();
  }
}

export function lineageAgents(state: WorkingState): LineageAgent[] {
  if (!hasDatabase(state.rootDir, 'lineage.db')) return [];
  const store = openLineageStore(state.rootDir, { now: state.now });
  try {
    return store.agents();
  } finally {
    store.close();
  }
}

export function threads(state: WorkingState, agentId?: string): ThreadHeadState[] {
  if (agentId !== undefined) checkAgentId(agentId);
  if (!hasDatabase(state.rootDir, 'heads.db')) return [];
  return withHeads(state.rootDir, (store) => store.threads.list(agentId)).sort((a, b) =>
    a.updatedAt < b.updatedAt ? 1 : -1,
  );
}

export function threadHead(
  state: WorkingState,
  agentId: string,
  threadKey: string,
): { state: ThreadHeadState; markdown: string } {
  checkAgentId(agentId);
  checkThreadKey(threadKey);
  const head = hasDatabase(state.rootDir, 'heads.db')
    ? withHeads(state.rootDir, (store) => store.threads.getThread(agentId, threadKey))
    : undefined;
  if (!head) {
    throw new CairnError('NOT_FOUND', `No thread head ${threadKey} for agent ${agentId}`, {
      hint: 'list threads with `cairn threads` or memory_threads',
    });
  }
  return { state: head, markdown: renderThreadHead(head) };
}

export function workingHealth(state: WorkingState): WorkingHealth {
  const { rootDir } = state;
  // Reading health must not create state in a project that has none yet.
  let pending: WorkingHealth['pending'] = [];
  let headsError: string | undefined;
  try {
    if (hasDatabase(rootDir, 'heads.db')) pending = withHeads(rootDir, (s) => s.leases.pending());
  } catch (error) {
    // A damaged heads.db is doctor's database finding; health still reports the rest.
    headsError = formatError(error);
  }
  return {
    failures: recentLifecycleFailures(rootDir).map((failure) => ({
      ...failure,
      fix: lifecycleFailureFix(failure),
    })),
    pending,
    ...(headsError ? { headsError } : {}),
  };
}

/**
 * What a clone of a shared repository has of its own (docs/TEAMS.md): its
 * head, kept in heads.db, and the fix patterns it shares with the others
 * and imports from them.
 */
function createTeamApi(rootDir: string, writer: WorkspaceWriter, now: () => Date) {
  return {
    /**
     * This clone's personal head (its threads, next actions, constraints and
     * lineage), as the last session end rendered it; undefined before one.
     * MEMORY.md's region holds the team head only.
     */
    localHead(): string | undefined {
      // Reading must not create heads.db in a project that has none yet.
      if (!hasDatabase(rootDir, 'heads.db')) return undefined;
      return withHeads(rootDir, (store) =>
        store.leases.lastRendered(LOCAL_HEAD.agentId, LOCAL_HEAD.scope),
      );
    },
    /**
     * Imports the fix patterns the other clones share in
     * `.cairn/memory/fixes/`, and with `write` writes this clone's own.
     * Creates nothing in a project with no task history and no shared file.
     */
    syncSharedFixes(options: { write?: boolean } = {}): Promise<SharedFixesSync> {
      return syncSharedFixes(
        rootDir,
        writer,
        () => withHeads(rootDir, (store) => store.authorId()),
        {
          now: now(),
          write: options.write ?? true,
        },
      );
    },
  };
}

/** Closes the lifecycle's stores; each opens again on its next use. */
export function closeWorking(state: WorkingState): void {
  state.lifecycle?.close();
}

/** The working part of `Cairn` over `state` (see `WorkingApi`). */
export function workingApi(state: WorkingState): WorkingApi {
  const { rootDir, memory, now } = state;
  return {
    lifecycle: lifecycleApi(state),
    previewPack: (request) => events(state).previewPack(request),
    expand: (nodeId, agentId, options) => expand(state, nodeId, agentId, options),
    lineageAgents: () => lineageAgents(state),
    threads: (agentId) => threads(state, agentId),
    threadHead: (agentId, threadKey) => threadHead(state, agentId, threadKey),
    ...createTeamApi(rootDir, memory.writer, now),
    workingHealth: () => workingHealth(state),
    clearLifecycleFailures: () => clearLifecycleFailures(rootDir),
    closeWorking: () => closeWorking(state),
  };
}
