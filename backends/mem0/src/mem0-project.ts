import { basename, resolve } from 'node:path';
import { CairnError, defaultProjectRepo, type MemoryRecordMeta, redactSecrets } from '@cairn/core';
import { mem0DataDir, type ResolvedMem0Options } from './mem0-options';
import type { Mem0Hit, Mem0SearchRequest, Mem0Store } from './mem0-store';
import { type Mem0SyncStats, type MirrorContext, type SyncRequest, syncMirror } from './mirror';
import { openOssStore } from './oss-store';
import { openPlatformStore } from './platform-store';

/** Whether a Mem0 failure may fall back to the file index: anything but bad input. */
export function canFallBack(error: unknown): boolean {
  return !(
    CairnError.isInstance(error) &&
    (error.code === 'INVALID_INPUT' || error.code === 'INVALID_CONFIG')
  );
}

/** The namespace stored on every entry: the configured one, or the project folder's name. */
export function namespaceOf(rootDir: string, options: Pick<ResolvedMem0Options, 'namespace'>) {
  return options.namespace ?? (basename(resolve(rootDir)) || 'cairn');
}

/**
 * The `repo` stored on every entry when none is configured: the folder name
 * and a hash of the absolute path, as Qdrant's default, so two checkouts
 * named alike never share entries.
 */
export function repoOf(rootDir: string, options: Pick<ResolvedMem0Options, 'repo'>): string {
  return options.repo || defaultProjectRepo(rootDir);
}

/**
 * One project's Mem0: the store, opened on first use (so nothing loads
 * mem0ai until a search or a sync needs it), and the mirror of its markdown.
 */
export class Mem0Project {
  readonly rootDir: string;
  readonly namespace: string;
  readonly repo: string;
  private opened: Promise<Mem0Store> | undefined;

  constructor(
    rootDir: string,
    readonly options: ResolvedMem0Options,
  ) {
    this.rootDir = resolve(rootDir);
    this.namespace = namespaceOf(this.rootDir, options);
    this.repo = repoOf(this.rootDir, options);
  }

  store(): Promise<Mem0Store> {
    if (!this.opened) {
      const opening =
        this.options.mode === 'platform'
          ? openPlatformStore(this.options)
          : openOssStore(this.rootDir, this.options);
      // A failed open is retried next time (the package may have been installed meanwhile).
      this.opened = opening.catch((error) => {
        this.opened = undefined;
        throw error;
      });
    }
    return this.opened;
  }

  async context(): Promise<MirrorContext> {
    return {
      store: await this.store(),
      embedder: this.options.embedder,
      namespace: this.namespace,
      repo: this.repo,
      chunk: this.options.chunk,
      dataDir: mem0DataDir(this.rootDir, this.options),
    };
  }

  async sync(request: SyncRequest): Promise<Mem0SyncStats> {
    return syncMirror(await this.context(), request);
  }

  /** Searches this project's partition (namespace and repo); `where` narrows further. */
  async search(request: Mem0SearchRequest): Promise<Mem0Hit[]> {
    const store = await this.store();
    const where = { ...request.where, namespace: this.namespace, repo: this.repo };
    // The query goes to Mem0 (and, in platform mode, off the machine).
    return store.search({ ...request, query: redactSecrets(request.query).text, where });
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    if (opened) await (await opened.catch(() => undefined))?.close();
  }
}

/** A task-history record's metadata back from an entry's (the partition gives namespace and repo). */
function recordOf(m: Record<string, unknown>): MemoryRecordMeta | undefined {
  const kind = m.record_kind;
  if (kind !== 'run_digest' && kind !== 'fix_pattern') return undefined;
  const text = (key: string) => (typeof m[key] === 'string' ? (m[key] as string) : '');
  return {
    kind,
    trustClass: text('trust_class') as MemoryRecordMeta['trustClass'],
    namespace: text('namespace'),
    repo: text('repo'),
    createdAt: text('unitCreatedAt'),
    ...(m.run_ref_kind && m.run_ref_id
      ? { runRef: { kind: text('run_ref_kind'), id: text('run_ref_id') } }
      : {}),
  };
}

/** Hits' line numbers and ids as Cairn stores them in metadata. */
export function hitFields(hit: Mem0Hit) {
  const m = hit.metadata;
  const text = (key: string) => (typeof m[key] === 'string' ? (m[key] as string) : undefined);
  const record = recordOf(m);
  return {
    ...(record ? { record } : {}),
    path: text('path') ?? '',
    pool: text('pool'),
    kind: text('kind') === 'UNIT' ? ('UNIT' as const) : ('RAW' as const),
    startLine: Number(m.startLine) || 1,
    endLine: Number(m.endLine) || Number(m.startLine) || 1,
    memoryId: text('memoryId'),
    category: text('category'),
    review: text('review'),
    createdAt: text('unitCreatedAt'),
    chunkId: text('chunkId'),
  };
}
