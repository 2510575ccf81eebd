import { CairnError, type Embedder } from '@cairn/core';
import { loadQdrant } from './load-qdrant';
import { mapQdrantError } from './qdrant-errors';
import type { QdrantFilter } from './qdrant-filters';
import type { ResolvedQdrantOptions } from './qdrant-options';
import {
  type ChunkPayload,
  type ChunkPoint,
  DENSE_VECTOR,
  PAYLOAD_INDEXES,
  SPARSE_VECTOR,
} from './qdrant-payload';

type Body = Record<string, unknown>;

/** The client methods this package calls, typed loosely (the REST shapes are built here). */
interface QdrantApi {
  getCollection(name: string): Promise<{
    config?: { params?: { vectors?: unknown; sparse_vectors?: Record<string, unknown> | null } };
    payload_schema?: Record<string, unknown>;
    points_count?: number | null;
  }>;
  createCollection(name: string, body: Body): Promise<boolean>;
  createPayloadIndex(name: string, body: Body): Promise<unknown>;
  upsert(name: string, body: Body): Promise<unknown>;
  delete(name: string, body: Body): Promise<unknown>;
  setPayload(name: string, body: Body): Promise<unknown>;
  scroll(name: string, body: Body): Promise<{ points: StoredPoint[]; next_page_offset?: unknown }>;
  query(name: string, body: Body): Promise<{ points: StoredPoint[] }>;
  count(name: string, body: Body): Promise<{ count: number }>;
}

export interface StoredPoint {
  id: string | number;
  score?: number;
  payload?: Partial<ChunkPayload> | null;
}

const UPSERT_BATCH = 128;
const SCROLL_PAGE = 1000;

function denseSizeOf(vectors: unknown): number | undefined {
  const dense = (vectors as Record<string, { size?: unknown }> | undefined)?.[DENSE_VECTOR];
  return typeof dense?.size === 'number' ? dense.size : undefined;
}

/**
 * One collection on one server, reached through the lazily loaded client.
 * Every call goes through `call`, so every failure is a typed CairnError.
 */
export class QdrantStore {
  private api: Promise<QdrantApi> | undefined;
  private ready: Promise<void> | undefined;
  /** False when the collection was created without the sparse vector: keyword arm off. */
  sparse: boolean;

  constructor(
    readonly options: ResolvedQdrantOptions,
    private readonly warn: (message: string) => void,
  ) {
    this.sparse = options.sparse;
  }

  get collection(): string {
    return this.options.collection;
  }

  private client(): Promise<QdrantApi> {
    this.api ??= loadQdrant(this.options.loadClient).then(({ QdrantClient }) => {
      const { url, apiKey, timeoutMs, checkCompatibility } = this.options;
      return new QdrantClient({
        url,
        ...(apiKey ? { apiKey } : {}),
        timeout: timeoutMs,
        checkCompatibility,
      }) as unknown as QdrantApi;
    });
    this.api.catch(() => {
      this.api = undefined;
    });
    return this.api;
  }

  async call<T>(operation: string, run: (api: QdrantApi) => Promise<T>): Promise<T> {
    const api = await this.client();
    try {
      return await run(api);
    } catch (error) {
      throw mapQdrantError(error, operation, this.options.url);
    }
  }

  /** Creates the collection and its payload indexes when missing; checks the dense size. */
  ensure(): Promise<void> {
    this.ready ??= this.ensureOnce();
    this.ready.catch(() => {
      this.ready = undefined;
    });
    return this.ready;
  }

  private async ensureOnce(): Promise<void> {
    const { embedder } = this.options;
    const info = await this.describeOrCreate(embedder);
    const size = denseSizeOf(info.config?.params?.vectors);
    if (size !== embedder.dimensions) {
      throw new CairnError(
        'INVALID_CONFIG',
        `Qdrant collection "${this.collection}" holds ${size ?? 'no'}-dimensional "${DENSE_VECTOR}" vectors; the embedder makes ${embedder.dimensions}`,
        {
          hint: 'use another namespace (or collectionPrefix) for this embedder; the collection may be shared, so Cairn never drops it',
          details: { collection: this.collection, stored: size, configured: embedder.dimensions },
        },
      );
    }
    if (this.sparse && !info.config?.params?.sparse_vectors?.[SPARSE_VECTOR]) {
      this.sparse = false;
      this.warn(
        `Qdrant collection "${this.collection}" has no "${SPARSE_VECTOR}" sparse vector: recall uses dense vectors only`,
      );
    }
    const indexed = new Set(Object.keys(info.payload_schema ?? {}));
    for (const [field, schema] of Object.entries(PAYLOAD_INDEXES)) {
      if (indexed.has(field)) continue;
      await this.call('create payload index', (api) =>
        api.createPayloadIndex(this.collection, {
          field_name: field,
          field_schema: schema,
          wait: true,
        }),
      );
    }
  }

  private async describeOrCreate(embedder: Embedder) {
    try {
      return await this.call('get collection', (api) => api.getCollection(this.collection));
    } catch (error) {
      if (!(CairnError.isInstance(error) && error.code === 'NOT_FOUND')) throw error;
    }
    const body = {
      vectors: { [DENSE_VECTOR]: { size: embedder.dimensions, distance: 'Cosine' } },
      ...(this.sparse ? { sparse_vectors: { [SPARSE_VECTOR]: { modifier: 'idf' } } } : {}),
    };
    await this.call('create collection', (api) =>
      api.createCollection(this.collection, body),
    ).catch((error) => {
      // Another process created it first: use theirs.
      if (!(CairnError.isInstance(error) && error.code === 'CONFLICT')) throw error;
    });
    return this.call('get collection', (api) => api.getCollection(this.collection));
  }

  async upsert(points: ChunkPoint[]): Promise<void> {
    for (let at = 0; at < points.length; at += UPSERT_BATCH) {
      const batch = points.slice(at, at + UPSERT_BATCH);
      await this.call('upsert', (api) =>
        api.upsert(this.collection, { wait: true, points: batch }),
      );
    }
  }

  deleteWhere(filter: QdrantFilter): Promise<unknown> {
    return this.call('delete', (api) => api.delete(this.collection, { wait: true, filter }));
  }

  setPayload(payload: Body, filter: QdrantFilter): Promise<unknown> {
    return this.call('set payload', (api) =>
      api.setPayload(this.collection, { wait: true, payload, filter }),
    );
  }

  /** Every point matching the filter, with only the listed payload fields. */
  async scrollAll(filter: QdrantFilter, fields: string[]): Promise<StoredPoint[]> {
    const points: StoredPoint[] = [];
    let offset: unknown;
    do {
      const page = await this.call('scroll', (api) =>
        api.scroll(this.collection, {
          filter,
          limit: SCROLL_PAGE,
          with_payload: fields,
          with_vector: false,
          ...(offset !== undefined && offset !== null ? { offset } : {}),
        }),
      );
      points.push(...page.points);
      offset = page.next_page_offset;
    } while (offset !== undefined && offset !== null);
    return points;
  }

  query(body: Body): Promise<StoredPoint[]> {
    return this.call('query', async (api) => (await api.query(this.collection, body)).points);
  }

  count(filter: QdrantFilter): Promise<number> {
    return this.call(
      'count',
      async (api) => (await api.count(this.collection, { filter, exact: true })).count,
    );
  }
}
