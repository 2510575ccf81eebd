import { join } from 'node:path';
import { type Embedder, sha256Hex } from '@cairn/core';
import { openSqlite } from '@cairn/sqlite';
import { fakeSecrets, leakedFakeSecrets, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChatServer } from '../summaries/chat-server.fixture';
import { createCachedEmbedder } from './embedding-cache';
import { createOpenAiEmbedder } from './openai-embedder';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const secrets = fakeSecrets();

/** An embedder that records what it is asked to embed. */
function recording(): Embedder & { seen: string[] } {
  const seen: string[] = [];
  return {
    id: 'rec',
    model: 'rec',
    dimensions: 2,
    seen,
    async embed(texts) {
      seen.push(...texts);
      return texts.map((text) => [text.length, 1]);
    },
  };
}

describe('embedding redaction', () => {
  it('redacts before the cache key: no secret is embedded or hashed into the cache', async () => {
    const inner = recording();
    const path = join(project.root, 'embeddings.sqlite');
    const cached = createCachedEmbedder(inner, path);
    const texts = secrets.map((secret) => `deploy note: ${secret.line}`);
    await cached.embed(texts);
    expect(inner.seen).toHaveLength(texts.length);
    expect(leakedFakeSecrets(inner.seen.join('\n'))).toEqual([]);
    // The same note with another secret of the same kind is the same redacted text: one entry.
    const other = `deploy note: DB_PASSWORD=${'another-pass'.repeat(2)}`;
    await cached.embed([other]);
    expect(cached.stats).toEqual({ hits: 1, misses: texts.length });
    cached.close();

    const db = openSqlite(path, 'test');
    const keys = db.prepare('SELECT text_hash FROM embeddings').pluck().all() as string[];
    db.close();
    expect(keys).toHaveLength(new Set(inner.seen).size);
    for (const text of texts) expect(keys).not.toContain(sha256Hex(text));
    for (const text of inner.seen) expect(keys).toContain(sha256Hex(text));
  });

  it('the OpenAI-compatible embedder sends redacted inputs, recorded by a local server', async () => {
    const server = await startChatServer((request) => ({
      status: 200,
      body: {
        data: (request.body.input as string[]).map((_, index) => ({ index, embedding: [1, 0] })),
      },
    }));
    try {
      const embedder = createOpenAiEmbedder({
        baseUrl: server.baseUrl,
        model: 'tiny',
        dimensions: 2,
        batchSize: 4,
      });
      const vectors = await embedder.embed(secrets.map((secret) => secret.line));
      expect(vectors).toHaveLength(secrets.length);
      expect(server.requests.length).toBe(Math.ceil(secrets.length / 4));
      const sent = JSON.stringify(server.requests.map((r) => r.body));
      expect(sent).toContain('[REDACTED:');
      expect(leakedFakeSecrets(sent)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
