import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { closeSearchIndexes } from '@cairn/backend-file';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';
import { closedBaseUrl, startChatServer } from '../summaries/chat-server.fixture';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(async () => {
  closeSearchIndexes();
  await project.cleanup();
});

async function seeded(env: Record<string, string>) {
  const cairn = await openCairn(project.root, { env, homeDir: join(project.root, 'home') });
  await cairn.init();
  await cairn.add({ text: 'We run Postgres 16 in production.' });
  await cairn.add({ text: 'The office plants need water on Mondays.' });
  return cairn;
}

type WithMetadata = { metadata?: { mode?: string; embedder?: string; embedderError?: string } };

describe('openCairn with an embedder', () => {
  it('searches hybrid with the hash embedder configured', async () => {
    // A one-word typo is a faint signal for the hash embedder: the threshold is a setting.
    const cairn = await seeded({
      CAIRN_EMBEDDER_PROVIDER: 'hash',
      CAIRN_SEARCH_MIN_SIMILARITY: '0.01',
    });
    const [hit] = (await cairn.search({ query: 'postgress' })) as WithMetadata[];
    expect(hit?.metadata?.mode).toBe('hybrid');
    expect(
      await (await openCairn(project.root, { env: {} })).search({ query: 'postgress' }),
    ).toEqual([]);
  });

  it('embeds through an OpenAI-compatible server and caches what it got', async () => {
    const server = await startChatServer((request) => ({
      status: 200,
      body: {
        data: (request.body.input as string[]).map((text, index) => ({
          index,
          embedding: [text.length % 5, 1, 0, text.includes('Postgres') ? 3 : 0],
        })),
      },
    }));
    try {
      const cairn = await seeded({
        CAIRN_EMBEDDER_PROVIDER: 'openai',
        CAIRN_EMBEDDER_BASE_URL: server.baseUrl,
        CAIRN_EMBEDDER_MODEL: 'tiny',
        CAIRN_EMBEDDER_DIMENSIONS: '4',
        CAIRN_EMBEDDER_API_KEY_ENV: '',
      });
      const [hit] = (await cairn.search({ query: 'Postgres' })) as WithMetadata[];
      // Every hit also says its seed 004 §6.2 record kind and trust class.
      expect(hit?.metadata).toEqual({
        mode: 'hybrid',
        embedder: 'openai:tiny:4',
        record_kind: 'long_term_shadow',
        trust_class: 'approved',
      });
      expect(server.requests.length).toBeGreaterThan(0);
      expect(existsSync(join(project.root, '.cairn/index/embeddings.sqlite'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('falls back to keyword when the embedder server is down, and says so', async () => {
    const cairn = await seeded({
      CAIRN_EMBEDDER_PROVIDER: 'openai',
      CAIRN_EMBEDDER_BASE_URL: await closedBaseUrl(),
      CAIRN_EMBEDDER_MODEL: 'tiny',
      CAIRN_EMBEDDER_DIMENSIONS: '4',
      CAIRN_EMBEDDER_API_KEY_ENV: '',
    });
    const hits = (await cairn.search({ query: 'Postgres production' })) as (WithMetadata & {
      snippet: string;
    })[];
    // Neighbouring notes match through their context column, below the note itself.
    expect(hits[0]?.snippet).toContain('Postgres 16');
    for (const hit of hits) {
      expect(hit.metadata?.mode).toBe('keyword');
      expect(hit.metadata?.embedderError).toMatch(
        /BACKEND_UNAVAILABLE: Embedder endpoint unreachable/,
      );
    }
  });
});
