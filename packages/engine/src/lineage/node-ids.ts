import {
  idPrefixOf,
  idPrefixRange,
  isWholeId,
  NODE_ID_KIND,
  parseInput,
  resolveIdPrefix,
} from '@cairn/core';
import { readTransaction, type SqliteDatabase } from './lineage-database';
import { agentIdSchema } from './lineage-inputs';

/** An agent the lineage holds history of. */
export interface LineageAgent {
  agentId: string;
  /** Transcripts (sessions) kept for it. */
  sessions: number;
  /** Temporal nodes (summaries, compactions, digests) kept for it. */
  nodes: number;
}

/** How many ids a prefix lookup reads: one more than a CONFLICT lists. */
const PREFIX_MATCHES = 11;

/**
 * The agent's node that `input` names: a node id it has, or a unique start
 * of one (`node:1a2b3c4d`, `1a2b3c4d`). A start several nodes share is
 * CONFLICT; one no node has is NOT_FOUND. Anything else is returned as it
 * is, so reading it answers NOT_FOUND as for any missing node.
 */
export function resolveNodeId(db: SqliteDatabase, agentIdRaw: string, input: string): string {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  if (typeof input !== 'string' || isWholeId(input, NODE_ID_KIND)) return input;
  return readTransaction(db, 'resolve a node id', () => {
    const exact = db
      .prepare('SELECT id FROM temporal_nodes WHERE id = ? AND agent_id = ?')
      .get(input, agentId);
    const prefix = idPrefixOf(input, NODE_ID_KIND);
    if (exact || !prefix) return input;
    const [low, high] = idPrefixRange(prefix);
    const ids = db
      .prepare(
        'SELECT id FROM temporal_nodes WHERE id >= ? AND id < ? AND agent_id = ? ORDER BY id LIMIT ?',
      )
      .all(low, high, agentId, PREFIX_MATCHES) as { id: string }[];
    return resolveIdPrefix(
      input,
      NODE_ID_KIND,
      ids.map((row) => row.id),
    );
  });
}

/** Every agent with transcripts or nodes, by id. */
export function lineageAgents(db: SqliteDatabase): LineageAgent[] {
  return readTransaction(
    db,
    'list agents',
    () =>
      db
        .prepare(
          `SELECT agent_id AS agentId, SUM(sessions) AS sessions, SUM(nodes) AS nodes FROM (
             SELECT agent_id, COUNT(*) AS sessions, 0 AS nodes FROM transcripts GROUP BY agent_id
             UNION ALL
             SELECT agent_id, 0, COUNT(*) FROM temporal_nodes GROUP BY agent_id)
           GROUP BY agent_id ORDER BY agent_id`,
        )
        .all() as LineageAgent[],
  );
}
