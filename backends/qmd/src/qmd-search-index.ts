import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import {
  CairnError,
  formatError,
  type MemoryIndex,
  type MemoryIndexDescription,
  type MemoryIndexHit,
  type MemoryIndexQuery,
  type MemoryIndexRefreshOptions,
  memoryWorkspacePath,
  type PoolTarget,
} from '@cairn/core';
import { type WarningSink, WORKSPACE_POOL_ID } from '@cairn/index-kit';
import { folderSignature, workspaceSignature } from './markdown-signature';
import { QMD_INSTALL_COMMAND, type QmdCommand } from './qmd-command';
import { chunkText, type QmdHit, termRoots } from './qmd-hits';
import { type QmdCollectionSpec, QmdIndex } from './qmd-index';
import {
  defaultCollectionName,
  QMD_INDEX_DIR,
  qmdIndexDir,
  type ResolvedQmdOptions,
} from './qmd-options';
import { folderHitSource, type HitSource, resolveHits, workspaceHitSource } from './resolve-hits';

/** What a refresh did: the collections brought up to date, and (on rebuild) their files. */
export interface QmdRefreshStats {
  /** The first (for the backend, the workspace's) collection. */
  collection: string;
  collections: string[];
  /** Files in the collections, counted on rebuild. */
  files?: number;
}

/** qmd hits are whole documents; ask for more than the limit so filters still leave enough. */
export const fetchLimit = (limit: number) => Math.min(Math.max(limit * 3, 20), 200);

/** Whether the failure says the collection vanished from qmd's index (deleted by hand). */
const lostCollection = (error: unknown) =>
  String((error as Error)?.message ?? '').includes('Collection not found');

function notInstalled(): CairnError {
  return new CairnError(
    'BACKEND_UNAVAILABLE',
    `qmd is not installed (no "qmd" on PATH and no "command" option). Install it with \`${QMD_INSTALL_COMMAND}\` (Node >= 22)`,
    { hint: 'or set the "command" option; search uses the file index meanwhile' },
  );
}

interface Collection {
  spec: QmdCollectionSpec;
  source: HitSource;
}

/**
 * The project's markdown as qmd collections (`qmd search --json`, BM25):
 * the workspace is one collection (named after the project), each
 * registered pool folder another. qmd ranks whole documents; hits are
 * mapped back to the chunks of the files as they are now. Writes schedule
 * a debounced `qmd update`. Without a qmd command every call fails with
 * BACKEND_UNAVAILABLE naming the install command, and the fallback answers.
 */
export class QmdSearchIndex implements MemoryIndex<QmdRefreshStats> {
  private readonly cli: QmdIndex | undefined;
  private readonly workspaceName: string;

  constructor(
    private readonly rootDir: string,
    options: ResolvedQmdOptions,
    command: QmdCommand | undefined,
    private readonly warn: WarningSink,
    dataDir?: string,
  ) {
    const dir =
      options.indexDir || !dataDir
        ? qmdIndexDir(rootDir, options.indexDir)
        : join(dataDir, QMD_INDEX_DIR);
    this.cli = command ? new QmdIndex(dir, command, options, warn) : undefined;
    this.workspaceName = options.collection ?? defaultCollectionName(rootDir);
  }

  private qmd(): QmdIndex {
    if (!this.cli) throw notInstalled();
    return this.cli;
  }

  /** A pool as a collection: the workspace, or a folder named after the workspace's collection. */
  private collectionOf(target: PoolTarget): Collection {
    if (target.source.key === WORKSPACE_POOL_ID) {
      const dir = memoryWorkspacePath(resolve(this.rootDir));
      const name = this.workspaceName;
      const spec = { name, dir, signature: () => workspaceSignature(this.rootDir) };
      return { spec, source: workspaceHitSource(name, this.rootDir, dir) };
    }
    const base = target.base;
    const hash = createHash('sha256').update(`${target.id}\0${base}`).digest('hex').slice(0, 8);
    const name = `${this.workspaceName}-pool-${hash}`;
    const spec = { name, dir: base, signature: () => folderSignature(base) };
    return { spec, source: folderHitSource(name, base) };
  }

  async refresh(
    targets: PoolTarget[],
    options: MemoryIndexRefreshOptions = {},
  ): Promise<QmdRefreshStats> {
    const qmd = this.qmd();
    if (options.keepOnly) {
      // Collections of dropped pools only cost disk space; recall never asks for them.
      const keep = new Set(options.keepOnly.map((t) => this.collectionOf(t).spec.name));
      await qmd.prune(keep).catch((error) => {
        this.warn(`could not remove qmd collections of dropped pools: ${formatError(error)}`);
      });
    }
    const collections = targets.map((t) => this.collectionOf(t));
    const names = collections.map((c) => c.spec.name);
    if (options.rebuild) await qmd.forget(names);
    await qmd.prepare(collections.map((c) => c.spec));
    const stats = { collection: names[0] ?? '', collections: names };
    if (!options.rebuild) return stats;
    const files = await Promise.all(collections.map(async (c) => (await c.source.files()).length));
    return { ...stats, files: files.reduce((sum, n) => sum + n, 0) };
  }

  async changed(targets: PoolTarget[]): Promise<void> {
    this.cli?.scheduleUpdate(targets.map((t) => this.collectionOf(t).spec));
  }

  /** Searches the collections, re-creating once a collection qmd lost. */
  private async searchCollections(specs: QmdCollectionSpec[], text: string, limit: number) {
    const qmd = this.qmd();
    const names = specs.map((spec) => spec.name);
    try {
      return await qmd.search(text, names, limit);
    } catch (error) {
      if (!lostCollection(error)) throw error;
      await qmd.forget(names);
      await qmd.prepare(specs);
      return qmd.search(text, names, limit);
    }
  }

  async search(query: MemoryIndexQuery): Promise<MemoryIndexHit[]> {
    if (query.terms.length === 0) return [];
    await this.refresh(query.pools);
    const collections = query.pools.map((t) => this.collectionOf(t));
    const specs = collections.map((c) => c.spec);
    const hits: QmdHit[] = await this.searchCollections(
      specs,
      qmdQueryText(query),
      fetchLimit(query.limit),
    );
    const roots = termRoots(query.terms);
    const sources = collections.map((c) => c.source);
    const { chunks, stale } = await resolveHits(hits, sources, roots);
    // qmd named files that moved or vanished: its index is behind the markdown.
    if (stale > 0) this.cli?.scheduleUpdate(specs);
    const poolOf = new Map(sources.map((source, i) => [source, query.pools[i]!]));
    return chunks.map(({ chunk, path, source, score }) => {
      const pool = poolOf.get(source)!;
      return {
        ...chunk,
        path,
        id: `${pool.id}:${path}:${chunk.startLine}`,
        pool: pool.id,
        text: chunkText(chunk),
        score,
        highlight: roots,
      };
    });
  }

  async describe(): Promise<MemoryIndexDescription> {
    return { summary: 'qmd BM25 search', details: { indexDir: this.qmd().dir } };
  }

  /** Runs pending debounced updates now and waits for them. */
  async flush(): Promise<void> {
    await this.cli?.flush();
  }

  /** Cancels pending updates and waits for running qmd processes. */
  async close(): Promise<void> {
    await this.cli?.close();
  }
}

/**
 * The words qmd is asked for: the query's own words among its terms. The
 * joined forms of compounds (`bluegreen`) and camelCase parts are the file
 * index's; qmd tokenises the text itself and would miss a document that
 * lacks a joined form.
 */
export function qmdQueryText(query: Pick<MemoryIndexQuery, 'text' | 'terms'>): string {
  const own = new Set(query.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const words = query.terms.filter((term) => own.has(term));
  return (words.length > 0 ? words : query.terms).join(' ');
}
