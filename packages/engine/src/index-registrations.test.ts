import { lancedbIndex } from '@cairn/backend-lancedb';
import { getMemoryBackend, getRetrievalAdapter, type MemoryBackend } from '@cairn/core';
import { makeTempProject, type TempProject, writeWorkspaceFile } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOptionalPackage, setModuleImporter } from './optional-packages';

/** LanceDB's loader failing as it does when `@lancedb/lancedb` is not installed. */
const missingEngine = {
  loadModules: () => Promise.reject(new Error("Cannot find package '@lancedb/lancedb'")),
};

describe('packages that export an index', () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await makeTempProject();
    await writeWorkspaceFile(project.root, 'MEMORY.md', '# Memory\n\nDeploys use blue-green.\n');
  });
  afterEach(async () => {
    setModuleImporter((specifier) => import(specifier));
    await project.cleanup();
  });

  it('get a backend and an adapter built from the index, with the file index as fallback', async () => {
    setModuleImporter(async () => ({ lancedbIndex }));
    await loadOptionalPackage('lancedb');
    const backend = getMemoryBackend('lancedb')!.create({
      rootDir: project.root,
      options: missingEngine,
    });
    expect(backend.type).toBe('lancedb');
    const hits = await backend.search!(project.root, { query: 'deploys' });
    expect(hits[0]?.snippet).toContain('Deploys use blue-green.');
    expect(backend.warnings?.[0]).toMatch(/^LanceDB search failed, using the file index instead/);

    const registration = getRetrievalAdapter('lancedb')!;
    expect(registration.capabilities).toEqual({ semantic: true, keyword: true, graph: false });
    const adapter = registration.create({ rootDir: project.root, options: missingEngine });
    const recalled = await adapter.recall({ agentId: 'a', query: 'deploys' });
    expect(recalled[0]?.snippet).toContain('Deploys use blue-green.');
    expect((await adapter.status?.())?.ok).toBe(false);
  });

  it('a package without an index still registers its plain backend factory', async () => {
    const plain: MemoryBackend = {
      type: 'mem0',
      name: 'plain',
      capabilities: lancedbCapabilitiesLike,
      read: async () => ({ content: 'plain', exists: true, path: 'MEMORY.md' }),
      write: async () => ({ path: 'MEMORY.md', bytes: 0 }),
    };
    setModuleImporter(async () => ({
      createMem0Backend: () => plain,
      mem0Capabilities: lancedbCapabilitiesLike,
    }));
    await loadOptionalPackage('mem0');
    const backend = getMemoryBackend('mem0')!.create({ rootDir: project.root });
    expect(backend).toBe(plain);
    expect(getRetrievalAdapter('mem0')).toBeUndefined();
  });
});

const lancedbCapabilitiesLike = {
  readable: true,
  writable: false,
  supportsAtomicWrite: false,
  hasConflictResolution: false,
  persistent: false,
};
