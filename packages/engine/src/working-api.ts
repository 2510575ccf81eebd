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
import { embedderFromSettings } from './embeddings';
import { type ExpandOptions, expandNode, type LineageAgent, openLineageStore } from './lineage';
import { isDueCheap } from './maintenance/schedule';
import type { MemoryApi } from './memory-api';
import { HeadStore } from './working/head-store';
import { createLifecycle, type Lifecycle, type ProfilePackPreview } from './working/lifecycle';
import {
  clearLifecycleFailures,
  lifecycleFailureFix,
  recentLifecycleFailures,
} from './working/lifecycle-log';
import { createTeamApi } from './working/team-api';
import { renderThreadHead, type ThreadHeadState } from './working/thread-state';

/**
 * Working memory (seed 002) for one project: the lifecycle events, drill-down
 * into Tier 3, and the thread heads of Tier 2. Stores open on first use so a
 * command that needs none of this never loads SQLite.
 */
export function createWorkingApi(
  rootDir: string,
  settings: CairnSettings,
  memory: MemoryApi,
  now: () => Date,
  env: NodeJS.ProcessEnv = process.env,
  scheduleMaintenance: (rootDir: string) => void = () => undefined,
) {
  let lifecycle: Lifecycle | undefined;
  const embedder = () => embedderFromSettings(settings, rootDir, env);
  const events = () =>
    (lifecycle ??= createLifecycle({ rootDir, settings, memory, now, embedder, env }));
  const hasHeads = () => existsSync(join(cairnStatePath(rootDir), 'heads.db'));
  const withHeads = <T>(run: (store: HeadStore) => T): T => {
    const store = new HeadStore(rootDir);
    try {
      return run(store);
    } finally {
      store.close();
    }
  };

  const lifecycleApi: LifecycleApi = {
    sessionStart: (input) => events().sessionStart(input),
    userPromptSubmit: (input) => events().userPromptSubmit(input),
    toolUse: (input) => events().toolUse(input),
    preCompaction: (input) => events().preCompaction(input),
    compactionComplete: (input) => events().compactionComplete(input),
    sessionEnd: async (input) => {
      const result = await events().sessionEnd(input);
      // Insight extraction when due (docs/MAINTENANCE.md): one small read here, the run elsewhere.
      if (isDueCheap(rootDir, settings, now())) scheduleMaintenance(rootDir);
      return result;
    },
  };

  return {
    lifecycle: lifecycleApi,
    /** What a profile's hook would inject now, byte for byte (`cairn pack --profile`). */
    previewPack: (request: ProfilePackPreview) => events().previewPack(request),
    /**
     * Drill-down: the node, its lineage, siblings, thread, linked units and transcript,
     * secrets redacted (the lineage keeps them). Another agent's node is NOT_FOUND.
     */
    expand(nodeId: string, agentId: string, options: ExpandOptions = {}) {
      checkAgentId(agentId);
      // Reading must not create a database in a project that has no history yet.
      if (!existsSync(join(cairnStatePath(rootDir), 'lineage.db'))) {
        throw new CairnError('NOT_FOUND', `No temporal node ${nodeId} for agent ${agentId}`, {
          hint: 'this project has no lineage yet: lifecycle events create it',
        });
      }
      const store = openLineageStore(rootDir, { now });
      try {
        return expandNode(store, nodeId, agentId, options);
      } finally {
        store.close();
      }
    },
    /** The agents the lineage holds history of (none, and no database made, before any). */
    lineageAgents(): LineageAgent[] {
      if (!existsSync(join(cairnStatePath(rootDir), 'lineage.db'))) return [];
      const store = openLineageStore(rootDir, { now });
      try {
        return store.agents();
      } finally {
        store.close();
      }
    },
    /** Thread heads, optionally of one agent, most recently updated first. */
    threads(agentId?: string): ThreadHeadState[] {
      if (agentId !== undefined) checkAgentId(agentId);
      if (!hasHeads()) return [];
      return withHeads((store) => store.threads.list(agentId)).sort((a, b) =>
        a.updatedAt < b.updatedAt ? 1 : -1,
      );
    },
    threadHead(agentId: string, threadKey: string): { state: ThreadHeadState; markdown: string } {
      checkAgentId(agentId);
      checkThreadKey(threadKey);
      const state = hasHeads()
        ? withHeads((store) => store.threads.getThread(agentId, threadKey))
        : undefined;
      if (!state) {
        throw new CairnError('NOT_FOUND', `No thread head ${threadKey} for agent ${agentId}`, {
          hint: 'list threads with `cairn threads` or memory_threads',
        });
      }
      return { state, markdown: renderThreadHead(state) };
    },
    ...createTeamApi(rootDir, memory.writer, now),
    /** Lifecycle failures that were swallowed (fail-open) and writes still deferred. */
    workingHealth() {
      // Reading health must not create state in a project that has none yet.
      let pending: ReturnType<HeadStore['leases']['pending']> = [];
      let headsError: string | undefined;
      try {
        if (hasHeads()) pending = withHeads((store) => store.leases.pending());
      } catch (error) {
        // A damaged heads.db is doctor's database finding; health still reports the rest.
        headsError = formatError(error);
      }
      return {
        // What each failure left undone and how to redo it (docs/CLI.md, `cairn doctor`).
        failures: recentLifecycleFailures(rootDir).map((failure) => ({
          ...failure,
          fix: lifecycleFailureFix(failure),
        })),
        pending,
        ...(headsError ? { headsError } : {}),
      };
    },
    /** Marks the logged lifecycle failures as seen (`cairn doctor --clear`); returns how many. */
    clearLifecycleFailures: () => clearLifecycleFailures(rootDir),
    closeWorking() {
      lifecycle?.close();
    },
  };
}

export type WorkingApi = ReturnType<typeof createWorkingApi>;
