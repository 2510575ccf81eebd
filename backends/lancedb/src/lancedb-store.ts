import { CairnError } from '@cairn/core';
import type { Connection, Table } from '@lancedb/lancedb';
import type { LancedbModules } from './load-lancedb';
import { batches, sqlAnd, sqlOneOf, sqlString } from './sql';
import {
  type ChunkRow,
  chunkSchema,
  type FileRow,
  fileSchema,
  INDEX_FORMAT,
  META_CHUNK,
  META_EMBEDDER,
  META_FORMAT,
  RESULT_COLUMNS,
  type ResultRow,
  type TableMetadata,
} from './table-schema';

export interface StoreOpenOptions extends TableMetadata {
  modules: LancedbModules;
  uri: string;
  storageOptions: Record<string, string> | undefined;
  tableName: string;
  /** This project's partition of a table other projects may share: repo and namespace. */
  project: string;
  namespace: string;
  /** Store text redacted (object storage: the text leaves the machine). */
  redactText: boolean;
  dimensions: number;
  onEmbedderChange: 'rebuild' | 'error';
  readConsistencyInterval: number;
  warn: (message: string) => void;
}

/** A chunk already stored: enough to decide whether a new version needs writing or embedding. */
export interface StoredChunk {
  fingerprint: string;
  textHash: string;
  vector: number[];
}

export type VectorHit = ResultRow & { _distance: number };
export type KeywordHit = ResultRow & { _score: number };

const IN_BATCH = 500;
/** New rows outside the indexes before `optimize` folds them in (full-text and vector). */
const MIN_UNINDEXED_TO_OPTIMIZE = 1000;
const VECTOR_NPROBES = 20;
const VECTOR_REFINE_FACTOR = 10;

/** Why an existing table cannot be reused, or undefined when it can. */
function mismatch(metadata: Map<string, string>, wanted: TableMetadata): string | undefined {
  if (metadata.get(META_FORMAT) !== INDEX_FORMAT) return 'it was written by another index format';
  if (metadata.get(META_EMBEDDER) !== wanted.embedderKey) {
    return `its vectors come from embedder "${metadata.get(META_EMBEDDER)}", not "${wanted.embedderKey}"`;
  }
  if (metadata.get(META_CHUNK) !== wanted.chunkKey) return 'it was chunked with other settings';
  return undefined;
}

/**
 * The LanceDB side of the index: a chunk table (text, vector, metadata) and
 * a file-state table, in one database (local folder or object storage).
 */
export class LancedbStore {
  /** Which indexes exist, as last checked by ensureIndexes. */
  indexes = { fts: false, vector: false, rows: 0 };
  /** Every row this store reads, writes or deletes is the project's (repo and namespace). */
  readonly project: string;
  readonly namespace: string;
  readonly redactsText: boolean;
  private constructor(
    readonly options: StoreOpenOptions,
    private readonly db: Connection,
    private chunks: Table,
    private files: Table,
    /** Set when the tables were dropped on open (embedder, chunking or format change). */
    readonly rebuiltBecause: string | undefined,
  ) {
    this.project = options.project;
    this.namespace = options.namespace;
    this.redactsText = options.redactText;
  }

  /** `where` limited to this project's rows. */
  private scoped(...clauses: (string | undefined)[]): string {
    return sqlAnd([
      `project = ${sqlString(this.project)}`,
      `namespace_id = ${sqlString(this.namespace)}`,
      ...clauses.filter((c) => c !== undefined),
    ])!;
  }

  static async open(options: StoreOpenOptions): Promise<LancedbStore> {
    const db = await options.modules.lancedb.connect(options.uri, {
      readConsistencyInterval: options.readConsistencyInterval,
      ...(options.storageOptions ? { storageOptions: options.storageOptions } : {}),
    });
    const names = new Set(await db.tableNames());
    const filesName = `${options.tableName}_files`;
    let reason: string | undefined;
    if (names.has(options.tableName) !== names.has(filesName))
      reason = 'one of its tables is missing';
    else if (names.has(options.tableName)) {
      const schema = await (await db.openTable(options.tableName)).schema();
      reason = mismatch(schema.metadata, options);
      if (reason?.includes('embedder') && options.onEmbedderChange === 'error') {
        throw new CairnError(
          'CONFLICT',
          `The LanceDB index at ${options.uri} cannot be used: ${reason}`,
          {
            hint: 'run `cairn reindex` to rebuild it with the current embedder, or set onEmbedderChange: "rebuild"',
            details: {
              uri: options.uri,
              stored: schema.metadata.get(META_EMBEDDER),
              wanted: options.embedderKey,
            },
          },
        );
      }
    }
    if (reason) {
      options.warn(`rebuilding the LanceDB index at ${options.uri}: ${reason}`);
      for (const name of [options.tableName, filesName])
        if (names.has(name)) await db.dropTable(name);
    }
    const { arrow } = options.modules;
    const create = { mode: 'create' as const, existOk: true };
    const chunks = await db.createEmptyTable(
      options.tableName,
      chunkSchema(arrow, options.dimensions, options),
      create,
    );
    const files = await db.createEmptyTable(filesName, fileSchema(arrow, options), create);
    return new LancedbStore(options, db, chunks, files, reason);
  }

  /** Deletes this project's rows (a rebuild); other projects on the table keep theirs. */
  async reset(): Promise<void> {
    await this.chunks.delete(this.scoped());
    await this.files.delete(this.scoped());
  }

  async filesOf(pool: string): Promise<Map<string, FileRow>> {
    const rows = (await this.files
      .query()
      .where(this.scoped(`pool = ${sqlString(pool)}`))
      .toArray()) as FileRow[];
    return new Map(rows.map((row) => [row.path, { ...row }]));
  }

  /** Every pool id that has indexed files in this project. */
  async pools(): Promise<Set<string>> {
    const rows = (await this.files.query().where(this.scoped()).select(['pool']).toArray()) as {
      pool: string;
    }[];
    return new Set(rows.map((row) => row.pool));
  }

  async storedChunks(pool: string, paths: string[]): Promise<Map<string, StoredChunk>> {
    const found = new Map<string, StoredChunk>();
    for (const group of batches(paths, IN_BATCH)) {
      const rows = await this.chunks
        .query()
        .where(this.scoped(`pool = ${sqlString(pool)}`, sqlOneOf('path', group)))
        .select(['chunk_id', 'fingerprint', 'text_hash', 'vector'])
        .toArray();
      for (const row of rows) {
        found.set(row.chunk_id, {
          fingerprint: row.fingerprint,
          textHash: row.text_hash,
          vector: Array.from(row.vector as Iterable<number>),
        });
      }
    }
    return found;
  }

  async upsertChunks(rows: ChunkRow[]): Promise<void> {
    if (rows.length === 0) return;
    const { lancedb, arrow } = this.options.modules;
    const schema = chunkSchema(arrow, this.options.dimensions, this.options);
    for (const group of batches(rows, 5000)) {
      const data = lancedb.makeArrowTable(group as unknown as Record<string, unknown>[], {
        schema,
      });
      await this.chunks
        .mergeInsert(['project', 'namespace_id', 'chunk_id'])
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute(data);
    }
  }

  async deleteChunkIds(ids: string[]): Promise<void> {
    for (const group of batches(ids, IN_BATCH))
      await this.chunks.delete(this.scoped(sqlOneOf('chunk_id', group)));
  }

  async deletePaths(pool: string, paths: string[]): Promise<void> {
    for (const group of batches(paths, IN_BATCH)) {
      const where = this.scoped(`pool = ${sqlString(pool)}`, sqlOneOf('path', group));
      await this.chunks.delete(where);
      await this.files.delete(where);
    }
  }

  async upsertFiles(rows: FileRow[]): Promise<void> {
    if (rows.length === 0) return;
    const { lancedb, arrow } = this.options.modules;
    const data = lancedb.makeArrowTable(rows as unknown as Record<string, unknown>[], {
      schema: fileSchema(arrow, this.options),
    });
    await this.files
      .mergeInsert(['project', 'namespace_id', 'file_key'])
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute(data);
  }

  async dropPool(pool: string): Promise<void> {
    await this.chunks.delete(this.scoped(`pool = ${sqlString(pool)}`));
    await this.files.delete(this.scoped(`pool = ${sqlString(pool)}`));
  }

  /** Rewrites the pool-level columns of a pool whose tier or agents changed. */
  async setPoolMeta(pool: string, tier: string, agents: string[] | undefined): Promise<void> {
    await this.chunks.update({
      where: this.scoped(`pool = ${sqlString(pool)}`),
      valuesSql: {
        tier: sqlString(tier),
        agents: agents ? `make_array(${agents.map(sqlString).join(', ')})` : 'NULL',
      },
    });
  }

  /** This project's rows (matching `where`). */
  countRows(where?: string): Promise<number> {
    return this.chunks.countRows(this.scoped(where));
  }

  /**
   * Builds the full-text index once there are rows, the IVF_PQ vector index
   * once there are `threshold` rows, and folds new rows into both when many
   * are left outside. Returns whether a vector index exists.
   */
  async ensureIndexes(threshold: number): Promise<LancedbStore['indexes']> {
    const { Index } = this.options.modules.lancedb;
    const rows = await this.chunks.countRows();
    const indices = await this.chunks.listIndices();
    let fts = indices.some((index) => index.columns.includes('text'));
    let vector = indices.some((index) => index.columns.includes('vector'));
    if (!fts && rows > 0) {
      await this.chunks.createIndex('text', {
        config: Index.fts({ withPosition: false }),
        replace: true,
      });
      fts = true;
    }
    if (!vector && rows >= threshold) {
      const numPartitions = Math.max(1, Math.round(Math.sqrt(rows)));
      await this.chunks.createIndex('vector', {
        config: Index.ivfPq({ distanceType: 'cosine', numPartitions }),
        replace: true,
      });
      vector = true;
    }
    const unindexed = Math.max(0, ...indices.map((index) => index.numUnindexedRows ?? 0));
    if (unindexed > Math.max(MIN_UNINDEXED_TO_OPTIMIZE, rows / 10)) await this.chunks.optimize();
    this.indexes = { fts, vector, rows };
    return this.indexes;
  }

  async vectorSearch(vector: number[], where: string | undefined, limit: number) {
    let query = this.chunks.query().nearestTo(vector).distanceType('cosine');
    if (this.indexes.vector)
      query = query.nprobes(VECTOR_NPROBES).refineFactor(VECTOR_REFINE_FACTOR);
    query = query.where(this.scoped(where));
    return (await query
      .select([...RESULT_COLUMNS, '_distance'])
      .limit(limit)
      .toArray()) as VectorHit[];
  }

  async keywordSearch(text: string, where: string | undefined, limit: number) {
    if (!this.indexes.fts) return [];
    let query = this.chunks.query().fullTextSearch(text, { columns: 'text' });
    query = query.where(this.scoped(where));
    return (await query
      .select([...RESULT_COLUMNS, '_score'])
      .limit(limit)
      .toArray()) as KeywordHit[];
  }

  close(): void {
    this.chunks.close();
    this.files.close();
    this.db.close();
  }
}
