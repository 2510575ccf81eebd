import {
  type ChunkOptions,
  chunkDocument,
  decodeRecordHeader,
  type MemoryChunk,
  monotonicMs,
  parseMemoryDocument,
  type SourceFile,
  sha256Hex,
} from '@cairn/core';
import type { WarningSink } from './indexed-backend';
import type { SearchIndexRefreshStats } from './refresh-stats';

/** What an index holds of one file of a pool: enough to skip it unread while its stat is unchanged. */
export interface StoredFileState {
  size: number;
  mtimeMs: number;
  /** SHA-256 of the file's bytes (hex). */
  hash: string;
}

/** A file's state, with its path in the pool. */
export interface PoolFileState extends StoredFileState {
  path: string;
}

/** A file whose chunks are replaced: its new state, text and chunks. */
export interface PoolFileUpdate extends PoolFileState {
  text: string;
  chunks: MemoryChunk[];
}

/** Everything one sync changes in one pool. */
export interface PoolChanges {
  pool: string;
  /** Content unchanged, only the size or mtime moved: record the new stat. */
  restat: PoolFileState[];
  /** New files and files with new content: replace their chunks, then record their state. */
  updates: PoolFileUpdate[];
  /** Files gone from the source (or unreadable now): delete their chunks and state. */
  removed: string[];
  /** Drop whatever the index held for the pool first (a rebuild). */
  reset: boolean;
}

/** Where one pool's markdown comes from (index-kit's `IndexSource`; core's `PoolSource` with its pool id). */
export interface SyncSource {
  pool: string;
  list(): Promise<SourceFile[]> | SourceFile[];
  read(path: string): Promise<Buffer | undefined>;
  /** Task-history records: each file's header gives its chunks their record metadata. */
  records?: boolean;
  /** Cuts a file the source's own way; absent, `chunkFile` does. */
  chunk?(text: string, path: string): Promise<MemoryChunk[]> | MemoryChunk[];
}

/**
 * What an index supplies to be kept in sync with a source: the file states
 * it holds, and a write that applies one sync's changes.
 */
export interface PoolSink<Written extends { chunksWritten: number } = { chunksWritten: number }> {
  /**
   * The file states the index holds for the pool, by path. A sink whose
   * stored pool no longer applies (another folder, another embedder) drops
   * it and returns an empty map.
   */
  fileStates():
    | Promise<ReadonlyMap<string, StoredFileState>>
    | ReadonlyMap<string, StoredFileState>;
  /**
   * Upserts the updated files' chunks, deletes the removed files', and
   * records the new file states last, so that an interrupted write is
   * redone by the next sync, never lost. Called on every sync (see
   * `hasChanges` to skip an empty one).
   */
  write(changes: PoolChanges): Promise<Written> | Written;
}

export interface SyncPoolOptions {
  chunk: ChunkOptions;
  /** Ignore what the index holds and index every file again (`changes.reset`). */
  full?: boolean;
  /**
   * Told about a file whose chunker failed: the file is left as the index
   * holds it and tried again on the next sync.
   */
  warn?: WarningSink;
}

/** What one sync did, and the states of the files the pool now holds (of those listed). */
export interface PoolSync<Written extends { chunksWritten: number }> {
  stats: SearchIndexRefreshStats & Omit<Written, 'chunksWritten'>;
  /** By path: every listed file the index now holds, unchanged ones included. */
  states: Map<string, StoredFileState>;
  changes: PoolChanges;
}

/** Whether a sync has anything to write. */
export function hasChanges(changes: PoolChanges): boolean {
  return (
    changes.reset ||
    changes.restat.length > 0 ||
    changes.updates.length > 0 ||
    changes.removed.length > 0
  );
}

/** `target.source` as a sync source of the pool `target.id`. */
export function poolSyncSource(target: {
  id: string;
  source: Omit<SyncSource, 'pool'>;
}): SyncSource {
  const { source } = target;
  return {
    pool: target.id,
    list: () => source.list(),
    read: (path) => source.read(path),
    ...(source.records ? { records: true } : {}),
    ...(source.chunk ? { chunk: (text: string, path: string) => source.chunk!(text, path) } : {}),
  };
}

/*
 * A file cut into chunks as a sync reads it, unless its source cuts it
 * its own way (`SyncSource.chunk`).
 */

/** Any `<!-- cairn:… -->` line: metadata, never indexed text (head markers, damaged unit markers). */
const MARKER_LINE = /^\s*<!--\s*cairn:/;

/** Chunking options, and whether the file may be a task-history record (its source's `records`). */
export interface ChunkFileOptions extends ChunkOptions {
  records?: boolean | undefined;
}

/** The record header of a records source's file: its first line, when that is a valid header. */
function recordOf(text: string, records: boolean | undefined) {
  if (!records) return undefined;
  const end = text.indexOf('\n');
  return decodeRecordHeader(end === -1 ? text : text.slice(0, end));
}

/**
 * Parses and chunks one file with core's codec and chunker; marker lines
 * left in RAW text (a damaged unit, the head region) are removed, and
 * chunks with no text left are dropped. A records source's file (see
 * `PoolSource.records`) gives every chunk its header's record metadata.
 */
export function chunkFile(text: string, path: string, options: ChunkFileOptions): MemoryChunk[] {
  const record = recordOf(text, options.records);
  const chunks: MemoryChunk[] = [];
  for (const chunk of chunkDocument(parseMemoryDocument(text, path), options)) {
    const lines = chunk.text.split('\n');
    const kept = lines.some((line) => MARKER_LINE.test(line))
      ? lines.filter((line) => !MARKER_LINE.test(line)).join('\n')
      : chunk.text;
    if (kept.trim() === '') continue;
    const found = kept === chunk.text ? chunk : { ...chunk, text: kept };
    // A record's chunks date from the record: the `created` filters apply to it as to a unit.
    chunks.push(
      record ? { ...found, record, createdAt: found.createdAt ?? record.createdAt } : found,
    );
  }
  return chunks;
}

async function chunksOf(
  source: SyncSource,
  text: string,
  path: string,
  options: SyncPoolOptions,
): Promise<MemoryChunk[] | undefined> {
  try {
    return source.chunk
      ? await source.chunk(text, path)
      : chunkFile(text, path, { ...options.chunk, records: source.records });
  } catch (error) {
    if (!options.warn) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    options.warn(
      `could not cut ${path} of pool ${source.pool} into chunks (${reason}); its index entries stay as they were until the file changes: fix the file and search again`,
    );
    return undefined;
  }
}

/**
 * Compares the source with the stored states: an unchanged size and mtime
 * is skipped unread, a moved stat with the same hash only updates the stat,
 * anything else is re-chunked; stored files no longer listed (or readable)
 * are removed.
 */
async function collectChanges(
  source: SyncSource,
  known: ReadonlyMap<string, StoredFileState>,
  options: SyncPoolOptions,
) {
  const listed = await source.list();
  const changes: PoolChanges = {
    pool: source.pool,
    restat: [],
    updates: [],
    removed: [],
    reset: options.full === true,
  };
  const states = new Map<string, StoredFileState>();
  let read = 0;
  for (const file of listed) {
    const was = known.get(file.path);
    if (was && was.size === file.bytes && was.mtimeMs === file.mtimeMs) {
      states.set(file.path, was);
      continue;
    }
    const bytes = await source.read(file.path);
    if (!bytes) continue;
    read += 1;
    const state = {
      path: file.path,
      size: file.bytes,
      mtimeMs: file.mtimeMs,
      hash: sha256Hex(bytes),
    };
    if (was?.hash === state.hash) {
      changes.restat.push(state);
    } else {
      const text = bytes.toString('utf8');
      const chunks = await chunksOf(source, text, file.path, options);
      if (!chunks) {
        if (was) states.set(file.path, was);
        continue;
      }
      changes.updates.push({ ...state, text, chunks });
    }
    states.set(file.path, { size: state.size, mtimeMs: state.mtimeMs, hash: state.hash });
  }
  for (const path of known.keys()) if (!states.has(path)) changes.removed.push(path);
  return { changes, states, scanned: listed.length, read };
}

/**
 * Brings one pool of an index up to date with its source, incrementally:
 * the generic part every index shares (what changed since the stored file
 * states, chunking, the figures), with the index's own part in `sink`.
 */
export async function syncPool<Written extends { chunksWritten: number }>(
  source: SyncSource,
  sink: PoolSink<Written>,
  options: SyncPoolOptions,
): Promise<PoolSync<Written>> {
  const started = monotonicMs();
  const known = options.full ? new Map<string, StoredFileState>() : await sink.fileStates();
  const { changes, states, scanned, read } = await collectChanges(source, known, options);
  const written = await sink.write(changes);
  return {
    stats: {
      ...written,
      filesScanned: scanned,
      filesRead: read,
      filesChanged: changes.updates.length,
      filesRemoved: changes.removed.length,
      chunksWritten: written.chunksWritten,
      ms: Math.round((monotonicMs() - started) * 100) / 100,
    },
    states,
    changes,
  };
}
