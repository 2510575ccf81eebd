import { expectCode, makeTempProject, type TempProject, writeWorkspaceFile } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineIndexBackend } from './define-index-backend';
import { createIndexedBackend, indexedBackendCapabilities } from './indexed-backend';
import { createIndexedRetrievalAdapter } from './indexed-retrieval-adapter';
import { type KeywordIndexOptions, keywordIndexRegistration } from './keyword-index.fixture';

const define = () =>
  defineIndexBackend<KeywordIndexOptions, KeywordIndexOptions, { chunks: number }>(
    keywordIndexRegistration(),
  );

describe('defineIndexBackend', () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await makeTempProject();
    await writeWorkspaceFile(project.root, 'MEMORY.md', '# Head\n\nThe quokka service deploys.\n');
  });
  afterEach(() => project.cleanup());

  it('declares the capabilities and the registry entry from the registration alone', () => {
    const entries = define();
    expect(entries.index.type).toBe('keyword');
    expect(entries.capabilities).toBe(indexedBackendCapabilities);
    expect(entries.retrievalCapabilities).toEqual({ semantic: false, keyword: true, graph: false });
    expect(entries.retrievalAdapter).toMatchObject({
      id: 'keyword',
      capabilities: entries.retrievalCapabilities,
    });
    const adapter = entries.retrievalAdapter.create({ rootDir: project.root });
    expect(adapter.id).toBe('keyword');
  });

  it('builds the backend with its options parsed and its fallback composed', async () => {
    const { createBackend } = define();
    expect(() => createBackend({ nope: 1 } as never)).toThrow(/nope/);
    const backend = createBackend(
      { broken: true },
      {
        fallback: ({ onWarning }) =>
          createIndexedBackend(keywordIndexRegistration(), { onWarning }),
      },
    );
    expect(backend.type).toBe('keyword');
    const hits = await backend.search(project.root, { query: 'quokka' });
    expect(hits.map((h) => h.path)).toEqual(['MEMORY.md']);
    expect(backend.warnings[0]).toMatch(/^Keyword search failed, using the file index instead/);
  });

  it('builds the retrieval adapter, which throws without a fallback', async () => {
    const { createRetrievalAdapter } = define();
    const broken = createRetrievalAdapter({ rootDir: project.root, options: { broken: true } });
    await expectCode(broken.recall({ agentId: 'a', query: 'quokka' }), 'BACKEND_UNAVAILABLE');
    const adapter = createRetrievalAdapter(
      { rootDir: project.root, options: { broken: true } },
      {
        fallback: (factory) => createIndexedRetrievalAdapter(keywordIndexRegistration(), factory),
      },
    );
    const found = await adapter.recall({ agentId: 'a', query: 'quokka' });
    expect(found.map((r) => r.metadata?.path)).toEqual(['MEMORY.md']);
    expect((await adapter.status()).ok).toBe(false);
  });
});
