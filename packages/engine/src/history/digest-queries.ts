import { existsSync } from 'node:fs';
import {
  CairnError,
  checkAgentId,
  checkThreadKey,
  type RedactionResult,
  redactSecrets,
} from '@cairn/core';
import { lineageDatabasePath, openLineageStore } from '../lineage';
import { getRunDigest, listRunDigests } from './run-digest-store';
import type { RunDigest, StoredRunDigest } from './run-digest-types';

/**
 * Read-only queries over a project's run digests for the CLI and MCP, as
 * an agent or a user gets them: every text redacted (redactSecrets; the
 * lineage keeps the raw digest, marked). The
 * lineage is scoped by agent, so callers name the agents to look in (the
 * agents of `cairn threads` when the user gave none). A project without a
 * lineage database has no digests and is not given one.
 */

/** A digest as handed out: redacted, with what was replaced by kind. */
export interface ReadRunDigest extends StoredRunDigest {
  redacted: RedactionResult['found'];
}

/** Every string of the digest through redactSecrets, counting what was replaced. */
export function redactRunDigest(stored: StoredRunDigest): ReadRunDigest {
  const counts = new Map<string, number>();
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const result = redactSecrets(value);
      for (const { kind, count } of result.found) counts.set(kind, (counts.get(kind) ?? 0) + count);
      return result.text;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, walk(field)]));
    }
    return value;
  };
  const digest = walk(stored.digest) as RunDigest;
  const redacted = [...counts]
    .map(([kind, count]) => ({ kind, count }))
    .sort((a, b) => (a.kind < b.kind ? -1 : 1));
  return { ...stored, digest, redacted };
}

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
export function recentRunDigests(rootDir: string, query: DigestQuery): ReadRunDigest[] {
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
      .slice(0, limit)
      .map(redactRunDigest),
  );
}

/** One run's latest digest, by run id (session key) or digest node id, in the first agent that has it. */
export function findRunDigest(
  rootDir: string,
  run: string,
  agentIds: readonly string[],
): ReadRunDigest {
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
  if (found) return redactRunDigest(found);
  throw new CairnError('NOT_FOUND', `No run digest for ${run}`, {
    hint: 'list runs with `cairn history runs` (or memory_run_digest without a run); a digest is written at session end',
    details: { run, agents: agentIds.join(',') },
  });
}
