import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath, parseInput, redactSecrets } from '@cairn/core';
import { type LineageStore, lastPackReceipts, openLineageStore } from '@cairn/engine';
import * as z from 'zod/mini';
import { queryObject, type Route, type RouteContext } from './route';

const NODE_KINDS = ['session_summary', 'compaction', 'condensed', 'run_digest'] as const;
const key = z.string().check(z.minLength(1), z.maxLength(200));
const nodeQuery = z.object({ agent: key });
const sessionQuery = z.object({ agent: key, session: key });
const receiptQuery = z.object({ session: z.optional(key), agent: z.optional(key) });

/** Reads the lineage, or answers `empty` when this project has none yet (nothing is created). */
function withLineage<T>(context: RouteContext, empty: T, read: (store: LineageStore) => T): T {
  const root = context.cairn.rootDir;
  if (!existsSync(join(cairnStatePath(root), 'lineage.db'))) return empty;
  const store = openLineageStore(root);
  try {
    return read(store);
  } finally {
    store.close();
  }
}

interface SessionRow {
  agentId: string;
  sessionKey: string;
  nodes: number;
  firstAt: string;
  lastAt: string;
}

/** Every session with lineage nodes, of every agent, newest first. */
function listSessions(store: LineageStore): SessionRow[] {
  const sessions = new Map<string, SessionRow>();
  for (const kind of NODE_KINDS) {
    for (const head of store.nodeHeads(kind)) {
      if (!head.sessionKey) continue;
      const id = `${head.agentId}\u0000${head.sessionKey}`;
      const row = sessions.get(id) ?? {
        agentId: head.agentId,
        sessionKey: head.sessionKey,
        nodes: 0,
        firstAt: head.createdAt,
        lastAt: head.createdAt,
      };
      row.nodes += 1;
      if (head.createdAt < row.firstAt) row.firstAt = head.createdAt;
      if (head.createdAt > row.lastAt) row.lastAt = head.createdAt;
      sessions.set(id, row);
    }
  }
  return [...sessions.values()].sort((a, b) => (a.lastAt < b.lastAt ? 1 : -1));
}

/** One session's nodes, secrets redacted as `expand` does. */
function sessionNodes(context: RouteContext) {
  const { agent, session } = parseInput(sessionQuery, queryObject(context.query), 'session');
  const nodes = withLineage(context, [], (store) =>
    store.listNodes({ agentId: agent, sessionKey: session, limit: 500 }),
  );
  return { nodes: nodes.map((node) => ({ ...node, text: redactSecrets(node.text).text })) };
}

export const lineageRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/lineage\/sessions$/,
    handle: (context) => ({
      sessions: withLineage(context, [], listSessions),
      threads: context.cairn.threads(),
    }),
  },
  { method: 'GET', path: /^\/api\/lineage\/session$/, handle: sessionNodes },
  {
    method: 'GET',
    path: /^\/api\/lineage\/nodes\/((?:node:)?[0-9a-fA-F-]{4,36})$/,
    handle: (context) => {
      const { agent } = parseInput(nodeQuery, queryObject(context.query), 'node query');
      return context.cairn.expand(context.params[0]!, agent);
    },
  },
  {
    method: 'GET',
    path: /^\/api\/receipts$/,
    handle: (context) => {
      const query = parseInput(receiptQuery, queryObject(context.query), 'receipt filter');
      return {
        receipts: lastPackReceipts(context.cairn.rootDir, {
          ...(query.session ? { sessionKey: query.session } : {}),
          ...(query.agent ? { agentId: query.agent } : {}),
          limit: 50,
        }),
      };
    },
  },
];
