import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lancedbIndex } from '@cairn/backend-lancedb';
import { getMemoryBackend, getRetrievalAdapter, resolveSettings } from '@cairn/core';
import {
  describeRetrievalAdapter,
  makeTempProject,
  type TempProject,
  writeWorkspaceFile,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backendOptionsFor, registerBuiltins } from './backend-registrations';
import { loadOptionalPackage, optionalPackageFailure } from './optional-packages';
import { setModuleImporter } from './runtime';

registerBuiltins();
const registration = getRetrievalAdapter('file')!;

describeRetrievalAdapter({
  name: 'file (registered builtin)',
  capabilities: registration.capabilities,
  create: (rootDir) => registration.create({ rootDir }),
});

describe('registerBuiltins', () => {
  it('registers file and readonly backends and the file adapter, idempotently', () => {
    registerBuiltins();
    expect(getMemoryBackend('file')?.type).toBe('file');
    expect(getMemoryBackend('readonly')?.capabilities.writable).toBe(false);
    expect(registration.id).toBe('file');
  });
});

describe('backendOptionsFor: memory.namespace as the shared indexes partition key', () => {
  const settingsWith = (namespace: string, options: Record<string, unknown> = {}) => {
    const { settings } = resolveSettings({
      projectRoot: tmpdir(),
      homeDir: join(tmpdir(), 'cairn-no-home'),
      env: { CAIRN_MEMORY_NAMESPACE: namespace },
    });
    return { ...settings, memoryBackendOptions: options };
  };

  it('passes it to LanceDB and Qdrant unless their options name one; Mem0 only when not default', () => {
    const teamA = settingsWith('team-a');
    expect(backendOptionsFor('qdrant', teamA, tmpdir(), {})).toMatchObject({ namespace: 'team-a' });
    expect(backendOptionsFor('lancedb', teamA, tmpdir(), {})).toMatchObject({
      namespace: 'team-a',
    });
    expect(backendOptionsFor('mem0', teamA, tmpdir(), {})).toMatchObject({ namespace: 'team-a' });
    expect(backendOptionsFor('mem0', settingsWith('default'), tmpdir(), {})).not.toHaveProperty(
      'namespace',
    );
    expect(backendOptionsFor('file', teamA, tmpdir(), {})).not.toHaveProperty('namespace');
    const own = settingsWith('team-a', { namespace: 'ops' });
    expect(backendOptionsFor('qdrant', own, tmpdir(), {})).toMatchObject({ namespace: 'ops' });
  });
});

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

  it('a package without the index its manifest names is not registered, and says which export', async () => {
    setModuleImporter(async () => ({
      createMem0Backend: () => ({ type: 'mem0' }),
      mem0Capabilities: lancedbCapabilitiesLike,
    }));
    await loadOptionalPackage('mem0');
    expect(getMemoryBackend('mem0')).toBeUndefined();
    expect(getRetrievalAdapter('mem0')).toBeUndefined();
    expect(optionalPackageFailure('mem0')).toMatch(
      /cannot load @cairn\/backend-mem0 \(@cairn\/backend-mem0 does not export the index registration mem0Index\)/,
    );
  });
});

const lancedbCapabilitiesLike = {
  readable: true,
  writable: false,
  supportsAtomicWrite: false,
  hasConflictResolution: false,
  persistent: false,
};
