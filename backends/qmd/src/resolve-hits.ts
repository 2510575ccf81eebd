import type { MemoryChunk } from '@cairn/core';
import { readFolderFile, readWorkspaceFile } from '@cairn/index-kit';
import { folderMarkdownFiles, workspaceFiles } from './markdown-signature';
import { chunkScore, type QmdHit, rankChunks } from './qmd-hits';
import { canonicalPaths, normalizeQmdPath, parseQmdLocation } from './qmd-paths';

/** A qmd collection as Cairn reads it back: its files by canonical name. */
export interface HitSource {
  /** The qmd collection name. */
  collection: string;
  /** Absolute folder of the collection. */
  base: string;
  /** The canonical names of the files that exist now. */
  files(): Promise<string[]>;
  /** The text of one canonical file, or undefined when it vanished. */
  read(path: string): Promise<string | undefined>;
}

export interface ResolvedChunk {
  source: HitSource;
  /** Canonical path, relative to the source's folder. */
  path: string;
  chunk: MemoryChunk;
  score: number;
}

/** The workspace: only core's layered names, read through its path validation. */
export function workspaceHitSource(collection: string, rootDir: string, base: string): HitSource {
  return {
    collection,
    base,
    files: async () => (await workspaceFiles(rootDir)).map((file) => file.path),
    read: async (path) => (await readWorkspaceFile(rootDir, path))?.toString('utf8'),
  };
}

/** A registered pool folder: every markdown file under it. */
export function folderHitSource(collection: string, base: string): HitSource {
  return {
    collection,
    base,
    files: async () => (await folderMarkdownFiles(base)).map((file) => file.path),
    read: async (path) => (await readFolderFile(base, path))?.toString('utf8'),
  };
}

/**
 * Maps qmd's document hits back to files and chunks: each `qmd://` path is
 * normalized to a canonical name of its collection (stale or odd paths
 * included), the file is read as it is now, and the hit becomes its
 * matching chunks, best first. `stale` counts hits whose path qmd had
 * wrong or whose file is gone: a sign its index is behind.
 */
export async function resolveHits(
  hits: QmdHit[],
  sources: HitSource[],
  roots: string[],
): Promise<{ chunks: ResolvedChunk[]; stale: number }> {
  const byName = new Map(sources.map((source) => [source.collection, source]));
  const canonical = new Map<HitSource, ReturnType<typeof canonicalPaths>>();
  const chunks: ResolvedChunk[] = [];
  const seen = new Set<string>();
  let stale = 0;
  for (const hit of hits) {
    const location = parseQmdLocation(hit.file);
    const source = location.collection ? byName.get(location.collection) : sources[0];
    if (!source) continue;
    if (!canonical.has(source)) canonical.set(source, canonicalPaths(await source.files()));
    const path = normalizeQmdPath(location.path, canonical.get(source)!, source.base);
    const text = path === undefined ? undefined : await source.read(path);
    if (path === undefined || text === undefined) {
      stale += 1;
      continue;
    }
    if (path !== location.path) stale += 1;
    rankChunks(text, path, hit.line, roots).forEach((chunk, rank) => {
      const key = `${source.collection}\0${chunk.id}`;
      if (seen.has(key)) return;
      seen.add(key);
      chunks.push({ source, path, chunk, score: chunkScore(hit.score, rank) });
    });
  }
  return { chunks, stale };
}
