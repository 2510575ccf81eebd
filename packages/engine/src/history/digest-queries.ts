import { existsSync } from 'node:fs';
import { CairnError, checkAgentId, checkThreadKey } from '@cairn/core';
import { lineageDatabasePath, openLineageStore } from '../lineage';
import { getRunDigest, listRunDigests } from './run-digest-store';
import type { StoredRunDigest } from './run-digest-types';

/**
 * Read-only queries over a project's run digests for the CLI and MCP: the
 * lineage is scoped by agent, so callers name the agents to look in (the
 * agents of `cairn threads` when the user gave none). A project without a
 * lineage database has no digests and is not given one.
 */

export interface DigestQuery {
  agentIds: readonly string[];
  threadKey?: string;
  /** Default 20, at most 500. */
  limit?: number;
}

function withStore<T>(
  rootDir: string,
  empty: T,
  read: (store: ReturnType<typeof openLineageStore>) => T,
): T {
  if (!existsSync(lineageDatabasePath(rootDir))) return empty;
  const store = openLineageStore(rootDir);
  try {
    return read(store);
  } finally {
    store.close();
  }
}

/** The latest digest of each run of these agents, most recently ended first. */
export function recentRunDigests(rootDir: string, query: DigestQuery): StoredRunDigest[] {
  const limit = Math.min(Math.max(1, query.limit ?? 20), 500);
  const agentIds = query.agentIds.map((id) => checkAgentId(id));
  if (query.threadKey !== undefined) checkThreadKey(query.threadKey);
  return withStore(rootDir, [], (store) =>
    agentIds
      .flatMap((agentId) =>
        listRunDigests(store, {
          agentId,
          limit,
          ...(query.threadKey ? { threadKey: query.threadKey } : {}),
        }),
      )
      .sort((a, b) =>
        a.digest.endedAt < b.digest.endedAt ? 1 : a.digest.endedAt > b.digest.endedAt ? -1 : 0,
      )
      .slice(0, limit),
  );
}

/** One run's latest digest, by run id (session key) or digest node id, in the first agent that has it. */
export function findRunDigest(
  rootDir: string,
  run: string,
  agentIds: readonly string[],
): StoredRunDigest {
  for (const id of agentIds) checkAgentId(id);
  const found = withStore<StoredRunDigest | undefined>(rootDir, undefined, (store) => {
    for (const agentId of agentIds) {
      try {
        return getRunDigest(store, agentId, run);
      } catch (error) {
        if (!CairnError.isInstance(error) || error.code !== 'NOT_FOUND') throw error;
      }
    }
    return undefined;
  });
  if (found) return found;
  throw new CairnError('NOT_FOUND', `No run digest for ${run}`, {
    hint: 'list runs with `cairn history runs` (or memory_run_digest without a run); a digest is written at session end',
    details: { run, agents: agentIds.join(',') },
  });
}
