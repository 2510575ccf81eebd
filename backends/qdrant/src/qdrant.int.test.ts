/**
 * Conformance against a real Qdrant server. No server can run on the
 * machines that build Cairn, so this file skips itself (visibly) unless
 * QDRANT_URL is set; see the README for a local server and a cluster.
 *
 *   QDRANT_URL=http://localhost:6333 pnpm exec vitest run src/qdrant.int.test.ts
 *   QDRANT_URL=https://<cluster>:6333 QDRANT_API_KEY=<key> pnpm exec vitest run src/qdrant.int.test.ts
 */

import {
  describeMemoryBackend,
  describeRetrievalAdapter,
  type RetrievalFallbackOutcome,
  tempProjectPerTest,
} from '@cairn/testkit';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createQdrantBackend,
  createQdrantRetrievalAdapter,
  type QdrantRetrievalAdapter,
  qdrantCapabilities,
  qdrantRetrievalCapabilities,
} from './index';
import { unitId, writeQuokkaflareHead } from './test-fixtures';

const url = process.env.QDRANT_URL;
const apiKey = process.env.QDRANT_API_KEY;
/** One throwaway collection per run, deleted at the end. */
const namespace = `it_${process.pid}_${Date.now().toString(36)}`;
const connection = { ...(url ? { url } : {}), ...(apiKey ? { apiKey } : {}), namespace };

async function fallbackOutcome(rootDir: string): Promise<RetrievalFallbackOutcome> {
  const adapter = createQdrantRetrievalAdapter({
    rootDir,
    options: {
      ...connection,
      loadClient: async () => {
        throw new Error("Cannot find package '@qdrant/js-client-rest'");
      },
    },
  });
  const recall: RetrievalFallbackOutcome['recall'] = (query) => adapter.recall(query);
  await recall({ agentId: 'bob', query: 'quokkaflare' });
  const status = await adapter.status();
  return { adapterId: String(status.details?.fallback), warnings: adapter.warnings, recall };
}

if (!url) {
  describe('qdrant integration (needs a Qdrant server)', () => {
    it.skip('skipped: QDRANT_URL is not set (start one with `docker run -p 6333:6333 qdrant/qdrant`, then QDRANT_URL=http://localhost:6333)', () => {});
  });
} else {
  afterAll(async () => {
    const client = new QdrantClient({
      url,
      ...(apiKey ? { apiKey } : {}),
      checkCompatibility: false,
    });
    await client.deleteCollection(`cairn_${namespace}`).catch(() => undefined);
  });

  describeMemoryBackend({
    name: `qdrant at ${url}`,
    capabilities: qdrantCapabilities,
    create: () => createQdrantBackend(connection),
  });

  describeRetrievalAdapter({
    name: `qdrant at ${url}`,
    capabilities: qdrantRetrievalCapabilities,
    create: (rootDir) => createQdrantRetrievalAdapter({ rootDir, options: connection }),
    fallback: { missingPackage: '@qdrant/js-client-rest', run: fallbackOutcome },
  });

  describe('qdrant integration: refresh and search', () => {
    const project = tempProjectPerTest(writeQuokkaflareHead);
    let adapter: QdrantRetrievalAdapter;
    beforeEach(() => {
      adapter = createQdrantRetrievalAdapter({ rootDir: project.root, options: connection });
    });

    it('is healthy, counts its points and refreshes incrementally', async () => {
      await adapter.indexPaths([]);
      const status = await adapter.status();
      expect(status.ok, status.message).toBe(true);
      expect(status.details).toMatchObject({ sparse: true, points: 2 });
      const again = await adapter.rebuild();
      expect(again.pointsUpserted).toBe(2);
      expect((await adapter.status()).details).toMatchObject({ points: 2 });
    });

    it('recalls a unit with its metadata and filters by review state', async () => {
      const [hit] = await adapter.recall({ agentId: 'bob', query: 'pnpm dependency' });
      expect(hit?.metadata).toMatchObject({ memoryId: unitId(1), trust_class: 'approved' });
      const drafts = await adapter.recall({
        agentId: 'bob',
        query: 'pnpm',
        filters: { review: 'draft' },
      });
      expect(drafts).toEqual([]);
    });

    it('backend search honours kind and date filters', async () => {
      const backend = createQdrantBackend(connection);
      const units = await backend.search!(project.root, {
        query: 'pnpm',
        filters: { kind: ['UNIT'] },
      });
      expect(units.map((h) => h.memoryId)).toEqual([unitId(1)]);
      const later = await backend.search!(project.root, {
        query: 'pnpm',
        filters: { since: '2027-01-01' },
      });
      expect(later).toEqual([]);
      expect(backend.warnings).toEqual([]);
    });
  });
}
