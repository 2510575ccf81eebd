import { MemoryBackendError } from '@cairn/core';
import { loadMem0, type Mem0ClientModule } from './load-mem0';
import type { ResolvedMem0Options } from './mem0-options';
import {
  type Mem0Condition,
  type Mem0Hit,
  type Mem0Store,
  matchesConditions,
  scopeFilters,
  toHit,
} from './mem0-store';

/** Hits fetched per wanted hit: metadata conditions are checked here, after the platform's search. */
const OVERFETCH = 4;
const PAGE_SIZE = 100;

type PlatformItem = Parameters<typeof toHit>[0] & { event?: string };

/** The platform answers an add with a list, `{ results }`, or a queued event without ids. */
function addedIds(response: unknown): string[] {
  const items = Array.isArray(response)
    ? response
    : ((response as { results?: unknown[] } | undefined)?.results ?? []);
  return items
    .filter((item): item is PlatformItem => typeof (item as PlatformItem)?.id === 'string')
    .filter((item) => item.event === undefined || item.event === 'ADD')
    .map((item) => item.id);
}

function resultsOf(response: unknown): PlatformItem[] {
  if (Array.isArray(response)) return response as PlatformItem[];
  return ((response as { results?: PlatformItem[] } | undefined)?.results ?? []).filter(Boolean);
}

/** The platform's entity filter: every scope id must match. */
export function platformFilters(options: Pick<ResolvedMem0Options, 'scope'>) {
  return { AND: Object.entries(scopeFilters(options.scope)).map(([k, v]) => ({ [k]: v })) };
}

/** The platform API key from the env variable the options name; BACKEND_UNAVAILABLE without one. */
function apiKeyOf(options: ResolvedMem0Options, env: NodeJS.ProcessEnv): string {
  const apiKey = env[options.apiKeyEnv]?.trim();
  if (apiKey) return apiKey;
  throw new MemoryBackendError('BACKEND_UNAVAILABLE', 'mem0', `${options.apiKeyEnv} is not set`, {
    hint: `export ${options.apiKeyEnv}=<your Mem0 API key>, set apiKeyEnv to the variable that holds it, or use mode "oss"`,
    details: { apiKeyEnv: options.apiKeyEnv },
  });
}

type PlatformClient = InstanceType<Mem0ClientModule['MemoryClient']>;

/** The entries of the scope that meet `where`, page by page until `limit` are found. */
async function listEntries(
  client: PlatformClient,
  filters: ReturnType<typeof platformFilters>,
  where: Record<string, Mem0Condition>,
  limit: number,
): Promise<Mem0Hit[]> {
  const found: Mem0Hit[] = [];
  for (let page = 1; found.length < limit; page += 1) {
    const response = await client.getAll({ filters, page, pageSize: PAGE_SIZE });
    const items = resultsOf(response);
    found.push(...items.map(toHit).filter((hit) => matchesConditions(hit.metadata, where)));
    if (items.length < PAGE_SIZE || !(response as { next?: unknown }).next) break;
  }
  return found.slice(0, limit);
}

/**
 * The hosted Mem0 platform through `MemoryClient` (API key from the env
 * variable the options name). Entity scoping is sent to the server; Cairn's
 * metadata conditions (pool, namespace, review) are checked on the hits.
 */
export async function openPlatformStore(
  options: ResolvedMem0Options,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Mem0Store> {
  const apiKey = apiKeyOf(options, env);
  const { MemoryClient } = await loadMem0('mem0ai', {
    telemetry: options.telemetry,
    loader: options.loadModules,
  });
  const client = new MemoryClient({ apiKey, ...(options.host ? { host: options.host } : {}) });
  const filters = platformFilters(options);
  return {
    mode: 'platform',
    scope: options.scope,
    location: client.host,
    async add(text, metadata) {
      const response = await client.add([{ role: 'user', content: text }], {
        ...options.scope,
        metadata,
        infer: options.infer,
      });
      return addedIds(response);
    },
    async delete(id) {
      await client.delete(id).catch((error: unknown) => {
        if ((error as { name?: string })?.name !== 'MemoryNotFoundError') throw error;
      });
    },
    async search(request) {
      const response = await client.search(request.query, {
        filters,
        topK: request.topK * OVERFETCH,
        threshold: request.threshold,
      });
      return resultsOf(response)
        .map(toHit)
        .filter((hit) => matchesConditions(hit.metadata, request.where))
        .slice(0, request.topK);
    },
    list: (where, limit) => listEntries(client, filters, where, limit),
    async close() {
      // Stateless HTTP client.
    },
  };
}
