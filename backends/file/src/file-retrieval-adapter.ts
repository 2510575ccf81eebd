import { lstat, readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  ATOMIC_TEMP_PREFIX,
  type MemoryPoolDefinition,
  type MemoryQuery,
  type MemoryResult,
  type MemoryRetrievalAdapter,
  memoryPoolDefinitionSchema,
  memoryQuerySchema,
  memoryWorkspacePath,
  type NormalizedMemoryQuery,
  parseInput,
  type RetrievalAdapterCapabilities,
  type RetrievalAdapterFactoryOptions,
} from '@cairn/core';
import { queryTerms, scanMarkdown } from './keyword-scan';

export const fileRetrievalCapabilities = {
  semantic: false,
  keyword: true,
  graph: false,
} as const satisfies RetrievalAdapterCapabilities;

/** The workspace itself is always the hot pool unless a registered pool takes this id. */
export const WORKSPACE_POOL_ID = 'workspace';
const MAX_FILES_PER_POOL = 5000;
const SNIPPET_CHARS = 320;

async function markdownFiles(dir: string, found: string[] = []): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (found.length >= MAX_FILES_PER_POOL) break;
    if (entry.name.startsWith('.') || entry.name.startsWith(ATOMIC_TEMP_PREFIX)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await markdownFiles(path, found);
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path);
  }
  return found;
}

function eligible(pool: MemoryPoolDefinition, query: NormalizedMemoryQuery): boolean {
  if (!query.tiers.includes(pool.tier)) return false;
  if (query.poolIds && !query.poolIds.includes(pool.id)) return false;
  if (pool.agents && !pool.agents.includes(query.agentId)) return false;
  if (pool.roles && (!query.role || !pool.roles.includes(query.role))) return false;
  return true;
}

function matchesFilters(metadata: Record<string, unknown>, query: NormalizedMemoryQuery): boolean {
  for (const [key, wanted] of Object.entries(query.filters ?? {})) {
    const actual = String(metadata[key] ?? '');
    if (Array.isArray(wanted) ? !wanted.includes(actual) : wanted !== actual) return false;
  }
  return true;
}

/**
 * The builtin retrieval adapter (seed 001's filesystem fallback): keyword
 * recall over the markdown of each eligible pool, read on demand.
 */
export function createFileRetrievalAdapter(
  options: RetrievalAdapterFactoryOptions,
): MemoryRetrievalAdapter {
  const rootDir = options.rootDir;
  const workspacePool: MemoryPoolDefinition = {
    id: WORKSPACE_POOL_ID,
    tier: 'hot',
    path: memoryWorkspacePath(rootDir),
  };
  let pools: MemoryPoolDefinition[] = [workspacePool];

  async function recallPool(pool: MemoryPoolDefinition, query: NormalizedMemoryQuery) {
    const base = isAbsolute(pool.path) ? pool.path : resolve(rootDir, pool.path);
    const info = await lstat(base).catch(() => undefined);
    if (!info?.isDirectory()) return [];
    const terms = queryTerms(query.query);
    const results: MemoryResult[] = [];
    for (const file of await markdownFiles(base)) {
      const content = await readFile(file, 'utf8').catch(() => '');
      const path = relative(base, file).split('\\').join('/');
      for (const hit of scanMarkdown(content, terms, SNIPPET_CHARS)) {
        const metadata = { poolId: pool.id, tier: pool.tier, path, ...hit };
        if (!matchesFilters(metadata, query)) continue;
        results.push({
          id: `${pool.id}:${path}:${hit.startLine}`,
          uri: file,
          score: hit.score,
          snippet: hit.snippet,
          metadata: {
            poolId: pool.id,
            tier: pool.tier,
            path,
            startLine: hit.startLine,
            endLine: hit.endLine,
          },
        });
      }
    }
    return results;
  }

  return {
    id: 'file',
    capabilities: fileRetrievalCapabilities,
    async registerPools(definitions) {
      const parsed = definitions.map((pool) =>
        parseInput(memoryPoolDefinitionSchema, pool, 'pool definition'),
      );
      const overridesWorkspace = parsed.some((pool) => pool.id === WORKSPACE_POOL_ID);
      pools = overridesWorkspace ? parsed : [workspacePool, ...parsed];
    },
    async indexPaths() {
      // Pull-based: every recall reads the files as they are now.
    },
    async recall(input: MemoryQuery) {
      const query = parseInput(memoryQuerySchema, input, 'memory query');
      const results: MemoryResult[] = [];
      for (const pool of pools.filter((p) => eligible(p, query))) {
        results.push(...(await recallPool(pool, query)));
      }
      return results.sort((a, b) => (b.score ?? 0) - (a.score ?? 0)).slice(0, query.limit);
    },
    async status() {
      return {
        ok: true,
        message: `keyword scan over ${pools.length} pool(s)`,
        details: { pools: pools.map((p) => ({ id: p.id, tier: p.tier, path: p.path })) },
      };
    },
  };
}
