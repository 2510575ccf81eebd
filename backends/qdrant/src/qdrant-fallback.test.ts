import { createFileBackend, createFileRetrievalAdapter } from '@cairn/backend-file';
import {
  describeMemoryBackend,
  expectCode,
  snapshotTree,
  tempProjectPerTest,
} from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createQdrantBackend, createQdrantRetrievalAdapter, qdrantCapabilities } from './index';
import { closedPort, unitId, writeQuokkaflareHead } from './test-fixtures';

const offlineUrl = `http://127.0.0.1:${await closedPort()}`;
const missingClient = async () => {
  throw Object.assign(new Error("Cannot find package '@qdrant/js-client-rest'"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
};

// Storage is the file backend's whatever Qdrant does: the whole backend suite runs with no server.
describeMemoryBackend({
  name: 'qdrant (no server: storage on file, search falls back)',
  capabilities: qdrantCapabilities,
  create: () => createQdrantBackend({ url: offlineUrl }, { fallback: createFileBackend }),
  processFactory: {
    module: new URL('../dist/index.js', import.meta.url).href,
    exportName: 'createQdrantBackend',
    options: { url: offlineUrl },
  },
});

describe('fail-open', () => {
  const project = tempProjectPerTest(writeQuokkaflareHead);

  it('recall answers from the file adapter when the server is unreachable, and status says why', async () => {
    const adapter = createQdrantRetrievalAdapter(
      { rootDir: project.root, options: { url: offlineUrl } },
      { fallback: createFileRetrievalAdapter },
    );
    const results = await adapter.recall({ agentId: 'bob', query: 'quokkaflare' });
    expect(results.map((r) => r.metadata?.poolId)).toContain('workspace');
    expect(adapter.warnings.join('\n')).toMatch(/Qdrant recall failed.*BACKEND_UNAVAILABLE/);
    const status = await adapter.status();
    expect(status.ok).toBe(false);
    expect(status.details).toMatchObject({ fallback: 'file' });
    expect(status.message).toContain('ECONNREFUSED');
  });

  it('recall falls back with a warning naming the package when the client is not installed', async () => {
    const adapter = createQdrantRetrievalAdapter(
      { rootDir: project.root, options: { url: offlineUrl, loadClient: missingClient } },
      { fallback: createFileRetrievalAdapter },
    );
    await adapter.indexPaths([]);
    const results = await adapter.recall({ agentId: 'bob', query: 'pnpm' });
    expect(results[0]?.metadata?.memoryId).toBe(unitId(1));
    const warning = adapter.warnings.find((w) => w.includes('@qdrant/js-client-rest'));
    expect(warning).toContain('npm i @qdrant/js-client-rest');
  });

  it('backend search falls back to the file index with a warning', async () => {
    const warnings: string[] = [];
    const backend = createQdrantBackend(
      { url: offlineUrl, onWarning: (w) => warnings.push(w) },
      { fallback: createFileBackend },
    );
    const hits = await backend.search!(project.root, {
      query: 'pnpm',
      filters: { kind: ['UNIT'] },
    });
    expect(hits[0]?.memoryId).toBe(unitId(1));
    expect(warnings.join('\n')).toContain('Qdrant search failed, using the file index instead');
    await expectCode(backend.refresh(project.root), 'BACKEND_UNAVAILABLE');
  });

  it('bad input is INVALID_INPUT even while the server is down, and changes nothing', async () => {
    const before = await snapshotTree(project.root);
    expect(() =>
      createQdrantRetrievalAdapter({ rootDir: project.root, options: { url: 'ftp://x' } }),
    ).toThrow(/Invalid qdrant option: url/);
    expect(() => createQdrantBackend({ namespace: '../x' })).toThrow(/namespace/);
    expect(() => createQdrantBackend({ colour: 'blue' } as never)).toThrow(/unknown option/);
    const adapter = createQdrantRetrievalAdapter(
      { rootDir: project.root, options: { url: offlineUrl } },
      { fallback: createFileRetrievalAdapter },
    );
    await expectCode(adapter.recall({ agentId: '', query: 'x' }), 'INVALID_INPUT');
    await expectCode(
      adapter.registerPools([{ id: 'a/b', tier: 'hot', path: '.' }]),
      'INVALID_INPUT',
    );
    await expectCode(
      createQdrantBackend({ url: offlineUrl }).search!(project.root, { query: '' }),
      'INVALID_INPUT',
    );
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('reads QDRANT_URL and QDRANT_API_KEY when the options leave them out', async () => {
    const { resolveQdrantOptions } = await import('./qdrant-options');
    const resolved = resolveQdrantOptions(
      {},
      { QDRANT_URL: 'https://cluster.example:6333/', QDRANT_API_KEY: 'k' },
    );
    expect(resolved).toMatchObject({ url: 'https://cluster.example:6333', apiKey: 'k' });
    expect(resolveQdrantOptions({}, {}).url).toBe('http://localhost:6333');
  });
});
