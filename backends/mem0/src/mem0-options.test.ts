import { join } from 'node:path';
import { createHashEmbedder, type Embedder } from '@cairn/core';
import { expectCode } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import {
  CairnLangchainEmbeddings,
  DEFAULT_CHUNK,
  embedderTag,
  loadMem0,
  ossVectorStore,
  resolveMem0Options,
} from './index';

describe('mem0 options', () => {
  it('defaults: OSS, hash embedder, user scope, no inference, telemetry off', () => {
    const options = resolveMem0Options();
    expect(options).toMatchObject({
      mode: 'oss',
      scope: { userId: 'cairn' },
      infer: false,
      telemetry: false,
      threshold: 0.2,
      apiKeyEnv: 'MEM0_API_KEY',
      chunk: DEFAULT_CHUNK,
    });
    expect(options.embedder.id).toBe('hash');
    expect(
      resolveMem0Options({ embedder: { id: 'hash', dimensions: 64 } }).embedder.dimensions,
    ).toBe(64);
  });

  it('puts the default SQLite store under .cairn/index/mem0, one file per embedder', () => {
    const options = resolveMem0Options();
    const store = ossVectorStore('/p', options);
    expect(store).toEqual({
      provider: 'memory',
      config: {
        collectionName: 'cairn',
        dimension: 256,
        dbPath: join('/p', '.cairn', 'index', 'mem0', `vectors-${embedderTag(options)}.db`),
      },
    });
    const other = resolveMem0Options({ embedder: { id: 'hash', dimensions: 64 } });
    expect(embedderTag(other)).not.toBe(embedderTag(options));
    const relative = resolveMem0Options({
      vectorStore: { provider: 'memory', config: { dbPath: 'v.db' } },
    });
    expect(ossVectorStore('/p', relative).config.dbPath).toBe(join('/p', 'v.db'));
  });

  it('passes a Qdrant config through, with the embedder dimension', () => {
    const options = resolveMem0Options({
      vectorStore: {
        provider: 'qdrant',
        config: { url: 'http://127.0.0.1:6333', apiKey: 'k', collectionName: 'team' },
      },
    });
    expect(ossVectorStore('/p', options)).toEqual({
      provider: 'qdrant',
      config: { url: 'http://127.0.0.1:6333', apiKey: 'k', collectionName: 'team', dimension: 256 },
    });
  });

  it('rejects bad values with INVALID_CONFIG', () => {
    const bad = [
      { mode: 'cloud' },
      { scope: { userId: 'a b' } },
      { scope: { teamId: 'x' } },
      { threshold: -1 },
      { vectorStore: { config: {} } },
      { apiKeyEnv: 'not-an-env-name' },
      { host: 'ftp://x' },
      { chunk: { maxTokens: 2 } },
      { embedder: { id: 'openai' } },
    ];
    for (const options of bad) {
      expect(() => resolveMem0Options(options), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: 'INVALID_CONFIG' }),
      );
    }
  });

  it('a missing mem0ai is BACKEND_UNAVAILABLE with the install command', async () => {
    const failing = () => Promise.reject(new Error('Cannot find package'));
    const error = await expectCode(
      loadMem0('mem0ai/oss', { telemetry: false, loader: failing }),
      'BACKEND_UNAVAILABLE',
    );
    expect(error.hint).toContain('pnpm add mem0ai better-sqlite3');
  });
});

describe('CairnLangchainEmbeddings', () => {
  it('embeds through the Cairn embedder, as LangChain Embeddings', async () => {
    const embedder = createHashEmbedder({ dimensions: 32 });
    const embeddings = new CairnLangchainEmbeddings(embedder);
    const [expected] = await embedder.embed(['hello world']);
    expect(await embeddings.embedQuery('hello world')).toEqual(expected);
    expect(await embeddings.embedDocuments([])).toEqual([]);
    expect(await embeddings.embedDocuments(['a', 'b'])).toHaveLength(2);
  });

  it('refuses vectors of the wrong size with a typed error', async () => {
    const broken: Embedder = {
      id: 'x',
      model: 'y',
      dimensions: 4,
      embed: async (t) => t.map(() => [1, 2]),
    };
    await expectCode(new CairnLangchainEmbeddings(broken).embedQuery('a'), 'INTERNAL');
  });
});
