import { CairnError, secretKinds } from '@cairn/core';
import type { SqliteDatabase } from './lineage-database';
import type { TemporalNode } from './lineage-types';

/** The columns of `temporal_nodes n`, aliased to the TemporalNode field names. */
export const NODE_COLUMNS = `n.id, n.agent_id AS agentId, n.kind, n.thread_key AS threadKey,
  n.session_key AS sessionKey, n.depth, n.start_at AS startAt, n.end_at AS endAt, n.source,
  n.text, n.created_at AS createdAt`;

/**
 * A node is a root while no edge points at it; `node_roots` holds exactly
 * those (kept by triggers, see lineage-migrations.ts).
 */
export const IS_ROOT = 'EXISTS (SELECT 1 FROM node_roots r WHERE r.node_id = n.id)';

export function nodeNotFound(agentId: string, nodeId: string): CairnError {
  return new CairnError('NOT_FOUND', `No temporal node ${nodeId} for agent ${agentId}`, {
    hint: 'list the agent’s nodes with listNodes; node ids are scoped to one agent',
    details: { agentId, nodeId },
  });
}

/** The agent's node, or undefined: another agent's node is indistinguishable from none. */
export function findNode(
  db: SqliteDatabase,
  agentId: string,
  nodeId: string,
): TemporalNode | undefined {
  return db
    .prepare(`SELECT ${NODE_COLUMNS} FROM temporal_nodes n WHERE n.id = ? AND n.agent_id = ?`)
    .get(nodeId, agentId) as TemporalNode | undefined;
}

export function requireNode(db: SqliteDatabase, agentId: string, nodeId: string): TemporalNode {
  const node = findNode(db, agentId, nodeId);
  if (!node) throw nodeNotFound(agentId, nodeId);
  return node;
}

/** Inserts a node row (marked with the kinds of secret its text holds) plus its edges and unit links. */
export function insertNode(
  db: SqliteDatabase,
  node: TemporalNode,
  childIds: readonly string[],
  unitIds: readonly string[],
): void {
  db.prepare(
    `INSERT INTO temporal_nodes
       (id, agent_id, kind, thread_key, session_key, depth, start_at, end_at, source, text,
        created_at, secrets)
     VALUES (@id, @agentId, @kind, @threadKey, @sessionKey, @depth, @startAt, @endAt, @source,
       @text, @createdAt, @secrets)`,
  ).run({ ...node, secrets: secretKinds(node.text).join(',') });
  const edge = db.prepare('INSERT OR IGNORE INTO node_edges (parent_id, child_id) VALUES (?, ?)');
  for (const childId of childIds) edge.run(node.id, childId);
  insertLinks(db, node.id, unitIds);
}

/** Links a node to unit ids; returns how many links are new. */
export function insertLinks(
  db: SqliteDatabase,
  nodeId: string,
  unitIds: readonly string[],
): number {
  const link = db.prepare('INSERT OR IGNORE INTO node_links (node_id, unit_id) VALUES (?, ?)');
  let added = 0;
  for (const unitId of unitIds) added += link.run(nodeId, unitId).changes;
  return added;
}
