import { CairnError, parseInput, randomUuid } from '@cairn/core';
import type { z } from 'zod';
import { readTransaction, type SqliteDatabase, writeTransaction } from './lineage-database';
import { addNodeSchema, agentIdSchema, listNodesSchema, threadKeySchema } from './lineage-inputs';
import type { AddNodeInput, ListNodesFilter, TemporalNode } from './lineage-types';
import { IS_ROOT, insertNode, NODE_COLUMNS, nodeNotFound, requireNode } from './node-rows';

type ValidNodeInput = z.output<typeof addNodeSchema>;

function invalid(message: string, hint: string): CairnError {
  return new CairnError('INVALID_INPUT', message, { hint });
}

function checkShape(input: ValidNodeInput): void {
  const needsSession = input.kind === 'session_summary' || input.kind === 'compaction';
  if (needsSession && !input.sessionKey) {
    throw invalid(`A ${input.kind} node needs a sessionKey`, 'pass the session it summarises');
  }
  if (input.kind === 'condensed') {
    if (input.sessionKey) {
      throw invalid('A condensed node has no sessionKey', 'its children carry the sessions');
    }
    if (!input.childIds?.length) {
      throw invalid('A condensed node needs childIds', 'pass the ids of the nodes it consumed');
    }
  } else if (input.childIds?.length) {
    throw invalid(`A ${input.kind} node cannot have children`, 'only condensed nodes do');
  }
}

function checkRange(startAt: string, endAt: string): void {
  if (endAt < startAt) {
    throw invalid(`endAt ${endAt} is before startAt ${startAt}`, 'swap or fix the time range');
  }
}

/** Builds a condensed node over `children`: one deeper than the deepest, spanning them all. */
export function condensedNode(
  fields: { agentId: string; threadKey: string; source: string; text: string },
  children: readonly TemporalNode[],
  createdAt: string,
  range: { startAt?: string; endAt?: string } = {},
): TemporalNode {
  const startAt = range.startAt ?? children.map((c) => c.startAt).sort()[0]!;
  const endAt =
    range.endAt ??
    children
      .map((c) => c.endAt)
      .sort()
      .at(-1)!;
  checkRange(startAt, endAt);
  return {
    id: `node:${randomUuid()}`,
    agentId: fields.agentId,
    kind: 'condensed',
    threadKey: fields.threadKey,
    sessionKey: null,
    depth: 1 + Math.max(...children.map((c) => c.depth)),
    startAt,
    endAt,
    source: fields.source,
    text: fields.text,
    createdAt,
  };
}

/** Appends a node; a condensed node gets its edges in the same transaction. */
export function addNode(db: SqliteDatabase, now: () => Date, raw: AddNodeInput): TemporalNode {
  const input = parseInput(addNodeSchema, raw, 'temporal node');
  checkShape(input);
  const createdAt = now().toISOString();
  const childIds = [...new Set(input.childIds ?? [])];
  const unitIds = input.unitIds ?? [];
  return writeTransaction(db, 'add a temporal node', () => {
    let node: TemporalNode;
    if (input.kind === 'condensed') {
      const children = childIds.map((id) => requireNode(db, input.agentId, id));
      node = condensedNode(input, children, createdAt, input);
    } else {
      const startAt = input.startAt ?? createdAt;
      const endAt = input.endAt ?? startAt;
      checkRange(startAt, endAt);
      node = {
        id: `node:${randomUuid()}`,
        agentId: input.agentId,
        kind: input.kind,
        threadKey: input.threadKey,
        sessionKey: input.sessionKey ?? null,
        depth: 0,
        startAt,
        endAt,
        source: input.source,
        text: input.text,
        createdAt,
      };
    }
    insertNode(db, node, childIds, unitIds);
    return node;
  });
}

/** The agent's node; another agent's node is NOT_FOUND, exactly like a missing one. */
export function getNode(db: SqliteDatabase, agentIdRaw: string, nodeId: string): TemporalNode {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  if (typeof nodeId !== 'string') throw nodeNotFound(agentId, String(nodeId));
  return readTransaction(db, 'read a temporal node', () => requireNode(db, agentId, nodeId));
}

type ValidListFilter = z.output<typeof listNodesSchema>;

/**
 * The listing's SQL, built from the filters actually given: an unused
 * filter is left out rather than written `(@x IS NULL OR ...)`, which keeps
 * SQLite off the thread index. Roots are read from `node_roots`, so listing
 * a thread's roots reads its few roots, not all its nodes.
 */
/**
 * The index a listing goes through when more than one could serve it:
 * without statistics SQLite may take the kind index for its order and scan
 * every digest of the agent for one run's or one thread's few.
 */
function nodesIndex(filter: ValidListFilter): string {
  if (filter.sessionKey !== undefined) return ' INDEXED BY temporal_nodes_by_session';
  if (filter.threadKey !== undefined) return ' INDEXED BY temporal_nodes_by_thread';
  return '';
}

function listNodesSql(filter: ValidListFilter): string {
  const from = filter.roots
    ? 'node_roots r CROSS JOIN temporal_nodes n ON n.id = r.node_id'
    : `temporal_nodes n${nodesIndex(filter)}`;
  const table = filter.roots ? 'r' : 'n';
  const where = [`${table}.agent_id = @agentId`];
  if (filter.threadKey !== undefined) where.push(`${table}.thread_key = @threadKey`);
  if (filter.sessionKey !== undefined) where.push('n.session_key = @sessionKey');
  if (filter.since !== undefined) where.push('n.end_at >= @since');
  // One kind as an equality, so that the kind index (agent, kind, start) orders the listing.
  if (filter.kinds?.length === 1) where.push('n.kind = @kind');
  else if (filter.kinds) where.push('n.kind IN (SELECT value FROM json_each(@kinds))');
  if (filter.roots === false) where.push(`NOT ${IS_ROOT}`);
  if (filter.newestPerSession) {
    // Nodes are appended: the session's newest is its largest rowid (found through the session index).
    const sameKind = filter.kinds ? ' AND m.kind = n.kind' : '';
    where.push(
      `n.rowid = (SELECT max(m.rowid) FROM temporal_nodes m INDEXED BY temporal_nodes_by_session
        WHERE m.agent_id = n.agent_id AND m.session_key IS n.session_key${sameKind})`,
    );
  }
  const direction = filter.order === 'desc' ? 'DESC' : 'ASC';
  return `SELECT ${NODE_COLUMNS} FROM ${from}
    WHERE ${where.join(' AND ')}
    ORDER BY n.start_at ${direction}, n.rowid ${direction}
    LIMIT @limit`;
}

export function listNodes(db: SqliteDatabase, raw: ListNodesFilter): TemporalNode[] {
  const filter = parseInput(listNodesSchema, raw, 'node filter');
  const params: Record<string, unknown> = { agentId: filter.agentId, limit: filter.limit ?? -1 };
  if (filter.threadKey !== undefined) params.threadKey = filter.threadKey;
  if (filter.sessionKey !== undefined) params.sessionKey = filter.sessionKey;
  if (filter.since !== undefined) params.since = filter.since;
  if (filter.kinds?.length === 1) params.kind = filter.kinds[0];
  else if (filter.kinds) params.kinds = JSON.stringify(filter.kinds);
  return readTransaction(
    db,
    'list temporal nodes',
    () => db.prepare(listNodesSql(filter)).all(params) as TemporalNode[],
  );
}

/** A node's identity without its text: what a listing of many nodes reads. */
export interface NodeHead {
  id: string;
  agentId: string;
  sessionKey: string | null;
  createdAt: string;
}

/**
 * Every node of one kind, of every agent, oldest first, without text: the
 * history pool lists the run digests of the whole project this way.
 */
export function nodeHeads(db: SqliteDatabase, kind: TemporalNode['kind']): NodeHead[] {
  return readTransaction(
    db,
    'list node heads',
    () =>
      db
        .prepare(
          `SELECT id, agent_id AS agentId, session_key AS sessionKey, created_at AS createdAt
           FROM temporal_nodes WHERE kind = ? ORDER BY rowid`,
        )
        .all(kind) as NodeHead[],
  );
}

/** The agent's threads (from nodes and transcripts), most recently active first. */
export function threadKeys(db: SqliteDatabase, agentIdRaw: string): string[] {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  return readTransaction(db, 'list thread keys', () =>
    (
      db
        .prepare(
          `SELECT thread_key AS threadKey FROM (
             SELECT thread_key, end_at AS last FROM temporal_nodes WHERE agent_id = @agentId
             UNION ALL
             SELECT t.thread_key, COALESCE(
               (SELECT MAX(e.at) FROM transcript_entries e WHERE e.transcript_id = t.id),
               t.started_at)
             FROM transcripts t WHERE t.agent_id = @agentId AND t.thread_key IS NOT NULL)
           GROUP BY thread_key ORDER BY MAX(last) DESC, thread_key`,
        )
        .all({ agentId }) as { threadKey: string }[]
    ).map((row) => row.threadKey),
  );
}

export function countNodes(db: SqliteDatabase, agentIdRaw: string, threadKeyRaw?: string): number {
  const agentId = parseInput(agentIdSchema, agentIdRaw, 'agentId');
  const threadKey =
    threadKeyRaw === undefined ? null : parseInput(threadKeySchema, threadKeyRaw, 'threadKey');
  const row = readTransaction(db, 'count temporal nodes', () =>
    db
      .prepare(
        threadKey === null
          ? 'SELECT COUNT(*) AS count FROM temporal_nodes WHERE agent_id = ?'
          : 'SELECT COUNT(*) AS count FROM temporal_nodes WHERE agent_id = ? AND thread_key = ?',
      )
      .get(agentId, ...(threadKey === null ? [] : [threadKey])),
  ) as { count: number };
  return row.count;
}
