import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertSafeStoreFolder,
  type ChunkOptions,
  type Embedder,
  embedderKey,
  type MemoryChunk,
  redactSecrets,
  withFileLock,
  writeFileAtomic,
} from '@cairn/core';
import { type PoolSink, syncPool } from '@cairn/index-kit';
import { chunkMetadata } from './chunk-metadata';
import type { Mem0Store } from './mem0-store';
import { type MirrorSource, syncSourceOf } from './sources';

/** One chunk as mirrored: its Mem0 ids and a digest of what was sent. */
interface MirroredChunk {
  key: string;
  ids: string[];
  digest: string;
}

interface MirroredFile {
  bytes: number;
  mtimeMs: number;
  hash: string;
  chunks: MirroredChunk[];
}

/** What is in Mem0 for one namespace and scope, by pool and file: the mirror's memory between runs. */
interface Manifest {
  version: 1;
  pools: Record<string, Record<string, MirroredFile>>;
}

/** What one sync (or rebuild) did. */
export interface Mem0SyncStats {
  filesScanned: number;
  filesChanged: number;
  filesRemoved: number;
  chunksAdded: number;
  chunksDeleted: number;
  ms: number;
}

export interface MirrorContext {
  store: Mem0Store;
  embedder: Embedder;
  namespace: string;
  /** Seed 004 §6.3 `repo`: with the namespace, the partition every add, list and delete keeps to. */
  repo: string;
  chunk: Required<ChunkOptions>;
  /** Folder of the manifest and its lock. */
  dataDir: string;
}

/** Manifests are saved every this many adds, so a killed sync loses little. */
const SAVE_EVERY = 200;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** One manifest per store location, scope, namespace, repo and embedder. */
export function manifestPath(context: MirrorContext): string {
  const { store, namespace, repo, embedder } = context;
  const identity = JSON.stringify([
    store.mode,
    store.location,
    store.scope,
    namespace,
    repo,
    embedderKey(embedder),
  ]);
  return join(context.dataDir, `mirror-${sha(identity).slice(0, 16)}.json`);
}

async function loadManifest(path: string): Promise<Manifest> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (!text) return { version: 1, pools: {} };
  try {
    const parsed = JSON.parse(text) as Manifest;
    return parsed.version === 1 && typeof parsed.pools === 'object'
      ? parsed
      : { version: 1, pools: {} };
  } catch {
    // A damaged manifest is rebuilt from scratch; Mem0 entries it knew are cleared by `rebuild`.
    return { version: 1, pools: {} };
  }
}

class MirrorRun {
  readonly stats: Mem0SyncStats = {
    filesScanned: 0,
    filesChanged: 0,
    filesRemoved: 0,
    chunksAdded: 0,
    chunksDeleted: 0,
    ms: 0,
  };
  private unsaved = 0;

  constructor(
    private readonly context: MirrorContext,
    private readonly manifest: Manifest,
    private readonly path: string,
  ) {}

  async save(force = false): Promise<void> {
    if (!force && this.unsaved < SAVE_EVERY) return;
    await writeFileAtomic(this.path, JSON.stringify(this.manifest));
    this.unsaved = 0;
  }

  /** Deletes a chunk's entries; without known ids (a queued platform add), finds them by chunk id. */
  async remove(pool: string, chunk: MirroredChunk): Promise<void> {
    const { store, namespace, repo } = this.context;
    const ids =
      chunk.ids.length > 0
        ? chunk.ids
        : (await store.list({ namespace, repo, pool, chunkId: chunk.key }, 50)).map(
            (hit) => hit.id,
          );
    for (const id of ids) await store.delete(id);
    this.stats.chunksDeleted += 1;
  }

  /** Brings one file's entries in line with its chunks: unchanged chunks stay, others are replaced. */
  async mirrorFile(
    pool: string,
    chunks: MemoryChunk[],
    before: MirroredChunk[],
  ): Promise<MirroredChunk[]> {
    const { store } = this.context;
    const old = new Map(before.map((chunk) => [chunk.key, chunk]));
    const next: MirroredChunk[] = [];
    for (const chunk of chunks) {
      const metadata = chunkMetadata(chunk, pool, this.context);
      const digest = sha(JSON.stringify([chunk.text, metadata]));
      const previous = old.get(chunk.id);
      old.delete(chunk.id);
      if (previous?.digest === digest) {
        next.push(previous);
        continue;
      }
      if (previous) await this.remove(pool, previous);
      // What goes into Mem0 may leave the machine (platform mode, a remote vector store).
      const ids = await store.add(redactSecrets(chunk.text).text, metadata);
      next.push({ key: chunk.id, ids, digest });
      this.stats.chunksAdded += 1;
      this.unsaved += 1;
    }
    for (const stale of old.values()) await this.remove(pool, stale);
    return next;
  }

  /** The manifest's files of one pool as a sink: Mem0 entries per chunk, the manifest saved as it goes. */
  private sinkOf(pool: string): PoolSink {
    this.manifest.pools[pool] ??= {};
    const files = this.manifest.pools[pool]!;
    const states = new Map(
      Object.entries(files).map(([path, file]) => [
        path,
        { size: file.bytes, mtimeMs: file.mtimeMs, hash: file.hash },
      ]),
    );
    return {
      fileStates: () => states,
      write: async (changes) => {
        const added = this.stats.chunksAdded;
        for (const file of changes.restat) {
          files[file.path] = { ...files[file.path]!, bytes: file.size, mtimeMs: file.mtimeMs };
        }
        for (const file of changes.updates) {
          const chunks = await this.mirrorFile(pool, file.chunks, files[file.path]?.chunks ?? []);
          files[file.path] = { bytes: file.size, mtimeMs: file.mtimeMs, hash: file.hash, chunks };
          await this.save();
        }
        for (const path of changes.removed) {
          for (const chunk of files[path]?.chunks ?? []) await this.remove(pool, chunk);
          delete files[path];
        }
        return { chunksWritten: this.stats.chunksAdded - added };
      },
    };
  }

  async mirrorSource(source: MirrorSource): Promise<void> {
    const { stats } = await syncPool(syncSourceOf(source), this.sinkOf(source.key), {
      chunk: this.context.chunk,
    });
    this.stats.filesScanned += stats.filesScanned;
    this.stats.filesChanged += stats.filesChanged;
    this.stats.filesRemoved += stats.filesRemoved;
  }

  /** Drops pools that are no longer registered (their entries leave Mem0). */
  async prune(keep: Set<string>): Promise<void> {
    for (const [pool, files] of Object.entries(this.manifest.pools)) {
      if (keep.has(pool)) continue;
      for (const file of Object.values(files)) {
        for (const chunk of file.chunks) await this.remove(pool, chunk);
      }
      delete this.manifest.pools[pool];
    }
  }
}

export interface SyncRequest {
  sources: MirrorSource[];
  /** Also remove pools that are not among `sources` (the adapter's reconcile). */
  prune?: boolean;
  /** Clear the namespace in Mem0 and mirror everything again. */
  rebuild?: boolean;
}

/**
 * Mirrors markdown into Mem0, incrementally: files with the same size and
 * mtime are not read, files with the same content are not re-chunked, and
 * only chunks whose text or metadata changed are deleted and added again.
 * A file lock keeps two processes from mirroring the same files at once.
 */
export async function syncMirror(
  context: MirrorContext,
  request: SyncRequest,
): Promise<Mem0SyncStats> {
  const started = performance.now();
  const path = manifestPath(context);
  // The manifest and its lock are read and written in the data folder: never through a link.
  assertSafeStoreFolder(context.dataDir);
  return withFileLock(`${path}.lock`, async () => {
    const manifest: Manifest = request.rebuild
      ? { version: 1, pools: {} }
      : await loadManifest(path);
    if (request.rebuild) await clearNamespace(context);
    const run = new MirrorRun(context, manifest, path);
    try {
      if (request.prune) await run.prune(new Set(request.sources.map((s) => s.key)));
      for (const source of request.sources) await run.mirrorSource(source);
    } finally {
      await run.save(true);
    }
    run.stats.ms = Math.round((performance.now() - started) * 100) / 100;
    return run.stats;
  });
}

/** Deletes every entry of this partition (namespace and repo) in the store's scope, orphans of a killed sync included. */
async function clearNamespace(context: MirrorContext): Promise<void> {
  const seen = new Set<string>();
  for (;;) {
    const batch = await context.store.list(
      { namespace: context.namespace, repo: context.repo },
      1000,
    );
    // A store that lists what it just deleted (eventual consistency) must not loop forever.
    const fresh = batch.filter((hit) => !seen.has(hit.id));
    if (fresh.length === 0) return;
    for (const hit of fresh) {
      seen.add(hit.id);
      await context.store.delete(hit.id);
    }
  }
}
