import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createFileBackend } from '@cairn/backend-file';
import {
  CairnError,
  formatError,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemorySearchOptions,
  type MemorySearchResult,
  memorySearchOptionsSchema,
  memoryWorkspacePath,
  parseInput,
} from '@cairn/core';
import { fileStorage, queryTerms, searchResultOf, warningSink } from '@cairn/index-kit';
import { workspaceFiles, workspaceSignature } from './markdown-signature';
import { QMD_INSTALL_COMMAND, type QmdCommand, resolveQmdCommand } from './qmd-command';
import { chunkPassesFilters, chunkSnippet, type QmdHit, termRoots } from './qmd-hits';
import { type QmdCollectionSpec, QmdIndex } from './qmd-index';
import {
  defaultCollectionName,
  type QmdBackendOptions,
  qmdIndexDir,
  type ResolvedQmdOptions,
  resolveQmdOptions,
} from './qmd-options';
import { type HitSource, resolveHits, workspaceHitSource } from './resolve-hits';

/** Storage is the file backend's: markdown, atomic writes. Only search goes through qmd. */
export const qmdCapabilities = {
  readable: true,
  writable: true,
  supportsAtomicWrite: true,
  hasConflictResolution: false,
  persistent: true,
} as const satisfies MemoryBackendCapabilities;

export interface QmdBackend extends MemoryBackend {
  /** Fallbacks to the file index and failed background updates, each once. */
  readonly warnings: readonly string[];
  /** The qmd command in use, or undefined when qmd was not found (search uses the file index). */
  readonly command: QmdCommand | undefined;
  search(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]>;
  /** Drops the workspace collection and indexes it again (`cairn reindex`). */
  rebuild(rootDir: string): Promise<{ collection: string; files: number }>;
  /** Runs pending debounced updates now and waits for them. */
  flush(): Promise<void>;
  /** Cancels pending updates and waits for running qmd processes. */
  close(): Promise<void>;
}

/** Bad input is the caller's problem; everything else qmd does wrong falls back. */
export function canFallBack(error: unknown): boolean {
  return !(CairnError.isInstance(error) && error.code === 'INVALID_INPUT');
}

/** qmd hits are whole documents; ask for more than the limit so filters still leave enough. */
export const fetchLimit = (limit: number) => Math.min(Math.max(limit * 3, 20), 200);

/** Turns document hits into bounded chunk results with canonical workspace paths. */
async function mapWorkspaceHits(
  hits: QmdHit[],
  source: HitSource,
  options: ReturnType<typeof parseSearchOptions>,
  terms: string[],
): Promise<{ results: MemorySearchResult[]; stale: number }> {
  const roots = termRoots(terms);
  const { chunks, stale } = await resolveHits(hits, [source], roots);
  const results = chunks
    .filter(({ chunk }) => chunkPassesFilters(chunk, options.filters))
    .slice(0, options.limit)
    .map(({ path, chunk, score }) =>
      searchResultOf({ ...chunk, path }, score, chunkSnippet(chunk, roots, options.snippetChars)),
    );
  return { results, stale };
}

const parseSearchOptions = (input: unknown) =>
  parseInput(memorySearchOptionsSchema, input, 'search options');

/** The workspace folder as a qmd collection of this project. */
export function workspaceSpec(rootDir: string, options: ResolvedQmdOptions): QmdCollectionSpec {
  return {
    name: options.collection ?? defaultCollectionName(rootDir),
    dir: memoryWorkspacePath(resolve(rootDir)),
    signature: () => workspaceSignature(rootDir),
  };
}

/** Whether the failure says the collection vanished from qmd's index (deleted by hand). */
const lostCollection = (error: unknown) =>
  String((error as Error)?.message ?? '').includes('Collection not found');

/** Prepares the collection and searches it, re-creating a collection qmd lost once. */
export async function searchCollections(
  index: QmdIndex,
  specs: QmdCollectionSpec[],
  query: string,
  limit: number,
): Promise<QmdHit[]> {
  const names = specs.map((spec) => spec.name);
  await index.prepare(specs);
  try {
    return await index.search(query, names, limit);
  } catch (error) {
    if (!lostCollection(error)) throw error;
    await index.forget(names);
    await index.prepare(specs);
    return index.search(query, names, limit);
  }
}

/**
 * A MemoryBackend whose storage is the file backend (markdown in
 * `.cairn/memory/` stays the source of truth) and whose search runs the
 * real qmd CLI (`qmd search --json`, BM25) over a collection of the
 * workspace, indexed under `.cairn/index/qmd/`. Writes schedule a debounced
 * `qmd update`. When qmd is missing, fails or times out, search answers
 * from the file index and the reason is added to `warnings`.
 */
export function createQmdBackend(input: QmdBackendOptions = {}): QmdBackend {
  const options = resolveQmdOptions(input);
  const { warnings, warn } = warningSink(options.onWarning);
  const file = createFileBackend({ getMaxLines: options.getMaxLines, onWarning: warn });
  const command = resolveQmdCommand(options.command);
  const indexes = new Map<string, QmdIndex>();
  const indexFor = (cmd: QmdCommand, rootDir: string) => {
    const dir = qmdIndexDir(rootDir, options.indexDir);
    let index = indexes.get(dir);
    if (!index) {
      index = new QmdIndex(dir, cmd, options, warn);
      indexes.set(dir, index);
    }
    return index;
  };

  async function search(rootDir: string, input: MemorySearchOptions) {
    const parsed = parseSearchOptions(input);
    const terms = queryTerms(parsed.query);
    if (!existsSync(memoryWorkspacePath(rootDir)) || terms.length === 0) return [];
    if (!command) {
      warn(
        `qmd is not installed (no "qmd" on PATH and no "command" option); search uses the file index. Install it with \`${QMD_INSTALL_COMMAND}\` (Node >= 22)`,
      );
      return file.search(rootDir, parsed);
    }
    const index = indexFor(command, rootDir);
    const spec = workspaceSpec(rootDir, options);
    try {
      const hits = await searchCollections(
        index,
        [spec],
        terms.join(' '),
        fetchLimit(parsed.limit),
      );
      const source = workspaceHitSource(spec.name, rootDir, spec.dir);
      const mapped = await mapWorkspaceHits(hits, source, parsed, terms);
      // qmd named files that moved or vanished: its index is behind the markdown.
      if (mapped.stale > 0) index.scheduleUpdate([spec]);
      return mapped.results;
    } catch (error) {
      if (!canFallBack(error)) throw error;
      warn(`qmd search failed, using the file index instead: ${formatError(error)}`);
      return file.search(rootDir, parsed);
    }
  }

  return {
    warnings,
    command,
    type: 'qmd',
    name: 'qmd (markdown in .cairn/memory/, search through the qmd CLI)',
    capabilities: qmdCapabilities,
    ...fileStorage(file),
    async write(rootDir, content) {
      const written = await file.write(rootDir, content);
      if (command) indexFor(command, rootDir).scheduleUpdate([workspaceSpec(rootDir, options)]);
      return written;
    },
    search,
    async rebuild(rootDir) {
      if (!command) {
        throw new CairnError('BACKEND_UNAVAILABLE', 'qmd is not installed', {
          hint: `install it with \`${QMD_INSTALL_COMMAND}\` (Node >= 22) or set the "command" option`,
        });
      }
      const spec = workspaceSpec(rootDir, options);
      const index = indexFor(command, rootDir);
      await index.forget([spec.name]);
      await index.prepare([spec]);
      return { collection: spec.name, files: (await workspaceFiles(rootDir)).length };
    },
    flush: async () => {
      await Promise.all([...indexes.values()].map((index) => index.flush()));
    },
    close: async () => {
      await Promise.all([...indexes.values()].map((index) => index.close()));
    },
  };
}
