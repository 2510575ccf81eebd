import { CairnError, lazySchema, parseInput } from '@cairn/core';
import * as z from 'zod/mini';
import { readTransaction, type SqliteDatabase, writeTransaction } from './lineage-database';
import {
  agentIdSchema,
  nodeIdSchema,
  summarizerOutputSchema,
  threadKeySchema,
  unitIdSchema,
} from './lineage-inputs';
import type { CondenseRootsInput, TemporalNode } from './lineage-types';
import { condensedNode } from './node-repository';
import { IS_ROOT, insertLinks, insertNode, NODE_COLUMNS, requireNode } from './node-rows';

const edgeSchema = lazySchema(() =>
  z.object({ agentId: agentIdSchema, parentId: z.string(), childId: z.string() }),
);

/**
 * Adds parent -> child. The parent must be a condensed node deeper than the
 * child: depth strictly falls along every edge, so no edge can close a cycle.
 * Returns false when the edge already existed.
 */
export function addEdge(
  db: SqliteDatabase,
  agentId: string,
  parentId: string,
  childId: string,
): boolean {
  const input = parseInput(edgeSchema, { agentId, parentId, childId }, 'edge');
  return writeTransaction(db, 'add an edge', () => {
    const parent = requireNode(db, input.agentId, input.parentId);
    const child = requireNode(db, input.agentId, input.childId);
    if (parent.kind !== 'condensed' || parent.depth <= child.depth) {
      throw new CairnError(
        'INVALID_INPUT',
        `${parent.id} (${parent.kind}, depth ${parent.depth}) cannot be a parent of ${child.id} (depth ${child.depth})`,
        { hint: 'only a condensed node can consume a node, and only a shallower one' },
      );
    }
    return (
      db
        .prepare('INSERT OR IGNORE INTO node_edges (parent_id, child_id) VALUES (?, ?)')
        .run(parent.id, child.id).changes > 0
    );
  });
}

function related(
  db: SqliteDatabase,
  agentIdRaw: string,
  nodeId: string,
  direction: 'parents' | 'children',
): TemporalNode[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const [self, other] =
    direction === 'parents' ? ['child_id', 'parent_id'] : ['parent_id', 'child_id'];
  return readTransaction(db, `read ${direction}`, () => {
    requireNode(db, agentId, String(nodeId));
    return db
      .prepare(
        `SELECT ${NODE_COLUMNS} FROM node_edges e JOIN temporal_nodes n ON n.id = e.${other}
         WHERE e.${self} = ? AND n.agent_id = ? ORDER BY n.start_at, n.rowid`,
      )
      .all(nodeId, agentId) as TemporalNode[];
  });
}

/** The condensed nodes that consumed this node (usually zero or one). */
export function parentsOf(db: SqliteDatabase, agentId: string, nodeId: string): TemporalNode[] {
  return related(db, agentId, nodeId, 'parents');
}

/** The nodes this node consumed, oldest first. */
export function childrenOf(db: SqliteDatabase, agentId: string, nodeId: string): TemporalNode[] {
  return related(db, agentId, nodeId, 'children');
}

/** Links a node to memory units; returns how many links are new. */
export function linkUnits(
  db: SqliteDatabase,
  agentIdRaw: string,
  nodeId: string,
  unitIdsRaw: string[],
): number {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const unitIds = parseInput(
    z.array(unitIdSchema).check(z.maxLength(1000)),
    unitIdsRaw,
    'unit ids',
  );
  return writeTransaction(db, 'link units', () => {
    requireNode(db, agentId, String(nodeId));
    return insertLinks(db, nodeId, unitIds);
  });
}

export function linkedUnits(db: SqliteDatabase, agentIdRaw: string, nodeId: string): string[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  return readTransaction(db, 'read linked units', () => {
    requireNode(db, agentId, String(nodeId));
    const rows = db
      .prepare('SELECT unit_id AS unitId FROM node_links WHERE node_id = ? ORDER BY unit_id')
      .all(nodeId) as { unitId: string }[];
    return rows.map((row) => row.unitId);
  });
}

/** Up to `count` roots of the node's thread on each side of it in time, oldest first. */
export function neighbourRoots(
  db: SqliteDatabase,
  agentIdRaw: string,
  nodeId: string,
  countRaw: number,
): TemporalNode[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const count = parseInput(
    z.number().check(z.int(), z.gte(0), z.lte(100)),
    countRaw,
    'neighbour count',
  );
  return readTransaction(db, 'read neighbouring roots', () => {
    const node = requireNode(db, agentId, String(nodeId));
    const { rowid } = db.prepare('SELECT rowid FROM temporal_nodes WHERE id = ?').get(node.id) as {
      rowid: number;
    };
    const side = (before: boolean) =>
      db
        .prepare(
          `SELECT ${NODE_COLUMNS} FROM node_roots r CROSS JOIN temporal_nodes n ON n.id = r.node_id
           WHERE r.agent_id = @agentId AND r.thread_key = @threadKey
             AND (n.start_at ${before ? '<' : '>'} @startAt
               OR (n.start_at = @startAt AND n.rowid ${before ? '<' : '>'} @rowid))
           ORDER BY n.start_at ${before ? 'DESC' : 'ASC'}, n.rowid ${before ? 'DESC' : 'ASC'}
           LIMIT @count`,
        )
        .all({ agentId, threadKey: node.threadKey, startAt: node.startAt, rowid, count });
    return [...(side(true) as TemporalNode[]).reverse(), ...(side(false) as TemporalNode[])];
  });
}

const condenseSchema = lazySchema(() =>
  z.object({
    agentId: agentIdSchema,
    threadKey: threadKeySchema,
    childIds: z.array(nodeIdSchema).check(z.minLength(1), z.maxLength(1000)),
    summary: summarizerOutputSchema,
  }),
);

/**
 * Creates a condensed node over `childIds` only if every one of them is still
 * a root, checked under the write lock. Returns null when another writer
 * consumed one first, so no node ever gets condensed twice.
 */
export function condenseRoots(
  db: SqliteDatabase,
  now: () => Date,
  raw: CondenseRootsInput,
): TemporalNode | null {
  const input = parseInput(condenseSchema, raw, 'condensation');
  const childIds = [...new Set(input.childIds)];
  return writeTransaction(db, 'condense roots', () => {
    const children = childIds.map((id) => requireNode(db, input.agentId, id));
    const stray = children.find((child) => child.threadKey !== input.threadKey);
    if (stray) {
      throw new CairnError(
        'INVALID_INPUT',
        `${stray.id} is in thread ${stray.threadKey}, not ${input.threadKey}`,
        { hint: 'condense the roots of one thread at a time' },
      );
    }
    const stillRoots = db.prepare(`SELECT 1 FROM temporal_nodes n WHERE n.id = ? AND ${IS_ROOT}`);
    if (children.some((child) => !stillRoots.get(child.id))) return null;
    const node = condensedNode(
      { agentId: input.agentId, threadKey: input.threadKey, ...input.summary },
      children,
      now().toISOString(),
    );
    insertNode(db, node, childIds, []);
    return node;
  });
}
