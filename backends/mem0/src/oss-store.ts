import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { assertSafeStoreFolder, embedderKey, makeDirectorySync } from '@cairn/core';
import { CairnLangchainEmbeddings } from './langchain-embeddings';
import { loadMem0 } from './load-mem0';
import { mem0DataDir, type ResolvedMem0Options } from './mem0-options';
import {
  type Mem0Condition,
  type Mem0Hit,
  type Mem0Store,
  scopeFilters,
  toHit,
} from './mem0-store';

type OssMemory = InstanceType<Awaited<ReturnType<typeof loadMem0<'mem0ai/oss'>>>['Memory']>;

const DEFAULT_COLLECTION = 'cairn';
/** Mem0 needs an LLM config even when it never calls it; with `infer: false` it does not. */
const UNUSED_LLM = { provider: 'openai', config: { apiKey: 'unused-infer-is-off' } };

/** A file-name-safe tag of the embedder: vectors of two embedders never share a database. */
export function embedderTag(options: Pick<ResolvedMem0Options, 'embedder'>): string {
  return createHash('sha256').update(embedderKey(options.embedder)).digest('hex').slice(0, 12);
}

/** The vector store config given to Mem0: defaults under `.cairn/index/mem0/`, paths resolved. */
export function ossVectorStore(rootDir: string, options: ResolvedMem0Options) {
  const provider = (options.vectorStore?.provider ?? 'memory').toLowerCase();
  const config: Record<string, unknown> = {
    collectionName: DEFAULT_COLLECTION,
    ...options.vectorStore?.config,
    dimension: options.embedder.dimensions,
  };
  if (provider === 'memory') {
    const dbPath = config.dbPath;
    config.dbPath =
      typeof dbPath === 'string'
        ? isAbsolute(dbPath)
          ? dbPath
          : resolve(rootDir, dbPath)
        : join(mem0DataDir(rootDir, options), `vectors-${embedderTag(options)}.db`);
  }
  return { provider, config };
}

/**
 * MEM0_DIR is process-wide and Mem0 reads it while it initializes (it keeps
 * an anonymous id in `$MEM0_DIR/config.json`, telemetry or not). Opening
 * one store at a time keeps each project's id in its own `.cairn/`.
 */
let opening: Promise<unknown> = Promise.resolve();

async function openMemory(rootDir: string, options: ResolvedMem0Options): Promise<OssMemory> {
  const { Memory } = await loadMem0('mem0ai/oss', {
    telemetry: options.telemetry,
    loader: options.loadModules,
  });
  const dataDir = mem0DataDir(rootDir, options);
  // Mem0 follows links: a folder under .cairn/ reached through one (or holding one) is refused.
  assertSafeStoreFolder(dataDir);
  makeDirectorySync(dataDir);
  process.env.MEM0_DIR = dataDir;
  const memory = new Memory({
    embedder: {
      provider: 'langchain',
      config: { model: new CairnLangchainEmbeddings(options.embedder) },
    },
    vectorStore: ossVectorStore(rootDir, options),
    llm: (options.llm ?? UNUSED_LLM) as never,
    historyDbPath: join(dataDir, 'history.db'),
  });
  // Any call waits for Mem0's own initialization; this one reads nothing.
  await memory.getAll({ filters: scopeFilters(options.scope), topK: 1 });
  return memory;
}

/** Mem0 keeps its SQLite handles open and has no close(); these are its fields, best effort. */
function closeHandles(memory: OssMemory): void {
  const inner = memory as unknown as Record<string, { db?: { close?: () => void } } | undefined>;
  for (const key of ['vectorStore', '_entityStore']) {
    try {
      inner[key]?.db?.close?.();
    } catch {
      // Already closed, or not SQLite.
    }
  }
  try {
    (inner.db as { close?: () => void } | undefined)?.close?.();
  } catch {
    // The history store may already be closed.
  }
}

const isMissing = (error: unknown) => /not found/i.test(String((error as Error)?.message));

/** Mem0 OSS in-process: the `Memory` class, Cairn's embedder, `infer: false` by default. */
export async function openOssStore(
  rootDir: string,
  options: ResolvedMem0Options,
): Promise<Mem0Store> {
  const pending = opening.then(() => openMemory(rootDir, options));
  opening = pending.catch(() => undefined);
  const memory = await pending;
  const scope = options.scope;
  const filters = (where: Record<string, Mem0Condition>) => ({ ...where, ...scopeFilters(scope) });
  const vectorStore = ossVectorStore(rootDir, options);
  return {
    mode: 'oss',
    scope,
    location: `${vectorStore.provider}:${String(vectorStore.config.dbPath ?? vectorStore.config.url ?? '')}:${String(vectorStore.config.collectionName)}`,
    async add(text, metadata) {
      const added = await memory.add(text, { ...scope, metadata, infer: options.infer });
      return added.results.map((item) => String(item.id));
    },
    async delete(id) {
      await memory.delete(id).catch((error) => {
        if (!isMissing(error)) throw error;
      });
    },
    async search(request): Promise<Mem0Hit[]> {
      const found = await memory.search(request.query, {
        topK: request.topK,
        threshold: request.threshold,
        filters: filters(request.where),
      });
      return found.results.map(toHit);
    },
    async list(where, limit) {
      const found = await memory.getAll({ filters: filters(where), topK: limit });
      return found.results.map(toHit);
    },
    async close() {
      closeHandles(memory);
    },
  };
}
