/**
 * Test helper (not part of the package API): a tiny HTTP server on
 * 127.0.0.1 that records the REST calls the real @qdrant/js-client-rest
 * makes and answers minimal valid Qdrant JSON. It is not a Qdrant: it
 * keeps only whether the collection exists and which payload indexes it
 * has; `scroll` and `query` answer what the test sets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  /** Path without the query string, e.g. `/collections/cairn_default/points`. */
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export interface Failure {
  status: number;
  error: string;
}

export interface RecordingServer {
  url: string;
  calls: RecordedCall[];
  /** Points `POST …/points/query` answers (default none). */
  queryAnswer: Array<{ id: string; score: number; payload: Record<string, unknown> }>;
  /** Points `POST …/points/scroll` answers (default none). */
  scrollAnswer: Array<{ id: string; payload: Record<string, unknown> }>;
  /** The dense size and sparse config of a collection that already exists (default: absent). */
  existing?: { size: number; sparse: boolean };
  /** The next matching request fails with this status and Qdrant's error body. */
  failNext(match: (call: RecordedCall) => boolean, failure: Failure): void;
  /** Calls other than the collection bootstrap (get, create, payload indexes). */
  dataCalls(): RecordedCall[];
  close(): Promise<void>;
}

const ok = (result: unknown) => ({ result, status: 'ok', time: 0.0001 });
const UPDATE = ok({ operation_id: 1, status: 'completed' });

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}

function collectionInfo(size: number, sparse: boolean, indexes: Set<string>) {
  return {
    status: 'green',
    optimizer_status: 'ok',
    points_count: 0,
    segments_count: 1,
    config: {
      params: {
        vectors: { dense: { size, distance: 'Cosine' } },
        ...(sparse ? { sparse_vectors: { keyword: { modifier: 'idf' } } } : {}),
        shard_number: 1,
        replication_factor: 1,
        write_consistency_factor: 1,
        on_disk_payload: true,
      },
      hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000 },
      optimizer_config: {},
      wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
    },
    payload_schema: Object.fromEntries(
      [...indexes].map((field) => [field, { data_type: 'keyword', points: 0 }]),
    ),
  };
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const failures: Array<{ match: (call: RecordedCall) => boolean; failure: Failure }> = [];
  const indexes = new Set<string>();
  let created: { size: number; sparse: boolean } | undefined;
  const state: RecordingServer = {
    url: '',
    calls: [],
    queryAnswer: [],
    scrollAnswer: [],
    failNext: (match, failure) => failures.push({ match, failure }),
    dataCalls: () =>
      state.calls.filter(
        (c) => !(c.method === 'GET' || /^\/collections\/[^/]+(\/index)?$/.test(c.path)),
      ),
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };

  const answer = (call: RecordedCall): [number, unknown] => {
    const failed = failures.findIndex((f) => f.match(call));
    if (failed >= 0) {
      const { failure } = failures.splice(failed, 1)[0]!;
      return [failure.status, { status: { error: failure.error }, time: 0 }];
    }
    const collection = created ?? state.existing;
    if (call.method === 'GET' && /^\/collections\/[^/]+$/.test(call.path)) {
      if (!collection) return [404, { status: { error: 'Not found: Collection does not exist' } }];
      return [200, ok(collectionInfo(collection.size, collection.sparse, indexes))];
    }
    if (call.method === 'PUT' && /^\/collections\/[^/]+$/.test(call.path)) {
      const vectors = call.body?.vectors as { dense: { size: number } };
      created = { size: vectors.dense.size, sparse: call.body?.sparse_vectors !== undefined };
      return [200, ok(true)];
    }
    if (call.method === 'PUT' && call.path.endsWith('/index')) {
      indexes.add(String(call.body?.field_name));
      return [200, UPDATE];
    }
    if (call.path.endsWith('/points/scroll')) {
      return [200, ok({ points: state.scrollAnswer, next_page_offset: null })];
    }
    if (call.path.endsWith('/points/query')) return [200, ok({ points: state.queryAnswer })];
    if (call.path.endsWith('/points/count')) return [200, ok({ count: 3 })];
    return [200, UPDATE];
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: await bodyOf(req),
      headers: req.headers,
    };
    state.calls.push(call);
    const [status, body] = answer(call);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
