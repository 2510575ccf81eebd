import { promises as fsp } from 'node:fs';
// `fsp` is read on first use; importing node:fs/promises loads readline up front (~1.5 ms).
import { join, relative } from 'node:path';
import {
  ATOMIC_TEMP_PREFIX,
  type MemoryPoolDefinition,
  type MemoryResult,
  type NormalizedMemoryQuery,
} from '@cairn/core';
import { MAX_FILES_PER_FOLDER, matchesFilters, queryTerms, scanMarkdown } from '@cairn/index-kit';

const SNIPPET_CHARS = 320;

async function markdownFiles(dir: string, found: string[] = []): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (found.length >= MAX_FILES_PER_FOLDER) break;
    if (entry.name.startsWith('.') || entry.name.startsWith(ATOMIC_TEMP_PREFIX)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await markdownFiles(path, found);
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path);
  }
  return found;
}

/**
 * Recall by a plain keyword scan of every markdown file under `base`: the
 * fallback when the SQLite index is unavailable.
 */
export async function scanPool(
  pool: MemoryPoolDefinition,
  base: string,
  query: NormalizedMemoryQuery,
): Promise<MemoryResult[]> {
  const info = await fsp.lstat(base).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  const terms = queryTerms(query.query);
  const results: MemoryResult[] = [];
  for (const file of await markdownFiles(base)) {
    const content = await fsp.readFile(file, 'utf8').catch(() => '');
    const path = relative(base, file).split('\\').join('/');
    for (const hit of scanMarkdown(content, terms, SNIPPET_CHARS)) {
      const metadata = {
        poolId: pool.id,
        tier: pool.tier,
        path,
        startLine: hit.startLine,
        endLine: hit.endLine,
      };
      if (!matchesFilters({ ...metadata, kind: 'RAW' }, query.filters)) continue;
      results.push({
        id: `${pool.id}:${path}:${hit.startLine}`,
        uri: file,
        score: hit.score,
        snippet: hit.snippet,
        metadata,
      });
    }
  }
  return results;
}
