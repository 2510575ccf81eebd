import {
  type MemoryBackend,
  type MemoryBackendCapabilities,
  MemoryBackendError,
} from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackendFixture } from './backend-fixture';
import type { BackendProcessFactory } from './child-writers';
import { describeBackendWrites } from './describe-backend-writes';
import { describeProcessWriters } from './describe-process-writers';
import { expectCode } from './expect-code';
import { makeTempProject, snapshotTree, type TempProject } from './tree-snapshot';

export interface DescribeMemoryBackendOptions {
  /** Shown in the suite title. */
  name: string;
  /** The package's static declaration (e.g. `fileCapabilities`); it decides which tests run. */
  capabilities: MemoryBackendCapabilities;
  /** A fresh backend; called once per test. */
  create: () => MemoryBackend | Promise<MemoryBackend>;
  cleanup?: (backend: MemoryBackend) => void | Promise<void>;
  /**
   * Puts `content` in the long-term file by other means, so read tests can
   * run against backends that do not write (e.g. readonly over file).
   */
  seed?: (rootDir: string, content: string) => Promise<void>;
  /** Lets the suite build the backend in other processes (concurrency and kill tests). */
  processFactory?: BackendProcessFactory;
}

const BAD_PATHS = ['../etc/passwd', '/etc/passwd', 'MEMORY.md\0x', 'notes.txt', 'a/../MEMORY.md'];

/**
 * The conformance suite of the MemoryBackend contract. The declared
 * capabilities decide which tests run; what is not declared must fail
 * cleanly (READ_ONLY, UNSUPPORTED) and change nothing on disk.
 */
export function describeMemoryBackend(options: DescribeMemoryBackendOptions): void {
  describe(`MemoryBackend conformance: ${options.name}`, () => {
    const fixture = freshBackendPerTest(options);
    describeReads(fixture, options);
    if (!options.capabilities.writable) {
      describeReadOnly(fixture, options);
    } else {
      describeBackendWrites(fixture);
      if (options.processFactory) describeProcessWriters(fixture, options.processFactory);
    }
  });
}

/** A new project and backend for every test, cleaned up after it. */
function freshBackendPerTest(options: DescribeMemoryBackendOptions): BackendFixture {
  let backend: MemoryBackend;
  let project: TempProject;
  beforeEach(async () => {
    project = await makeTempProject();
    backend = await options.create();
  });
  afterEach(async () => {
    await options.cleanup?.(backend);
    await project.cleanup();
  });
  return {
    capabilities: options.capabilities,
    backend: () => backend,
    project: () => project,
    create: async () => options.create(),
  };
}

/** Identity, and reads of a missing, a refused and a seeded document. */
function describeReads(fixture: BackendFixture, options: DescribeMemoryBackendOptions): void {
  const declared = options.capabilities;
  it('exposes the declared capabilities, a type and a name', () => {
    const backend = fixture.backend();
    expect(backend.type).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(backend.name.length).toBeGreaterThan(0);
    expect({ ...backend.capabilities }).toEqual({ ...declared });
  });

  it('reads a missing workspace as empty and creates nothing', async () => {
    const backend = fixture.backend();
    const { root } = fixture.project();
    const before = await snapshotTree(root);
    if (declared.readable) {
      const result = await backend.read(root);
      expect(result).toMatchObject({ content: '', exists: false });
    } else {
      await expectCode(backend.read(root), 'UNSUPPORTED');
    }
    if (backend.exists) expect(await backend.exists(root)).toBe(false);
    if (backend.search) {
      expect(await backend.search(root, { query: 'anything' })).toEqual([]);
    }
    expect(await snapshotTree(root)).toEqual(before);
  });

  it('get refuses bad paths (INVALID_PATH) and missing files (NOT_FOUND)', async (ctx) => {
    const backend = fixture.backend();
    if (!backend.get) return ctx.skip('the backend has no get()');
    const { root } = fixture.project();
    const before = await snapshotTree(root);
    for (const path of BAD_PATHS) {
      await expectCode(backend.get(root, { path }), 'INVALID_PATH');
    }
    await expectCode(backend.get(root, { path: '2020-01-01.md' }), 'NOT_FOUND');
    await expectCode(backend.get(root, { path: 'MEMORY.md', startLine: 0 }), 'INVALID_INPUT');
    expect(await snapshotTree(root)).toEqual(before);
  });

  const seed = options.seed;
  if (seed) {
    it('reads seeded unicode content exactly', async () => {
      const text = '# Mémoire 記憶 🧠\n\nשלום — e\u0301 combining\n';
      await seed(fixture.project().root, text);
      expect((await fixture.backend().read(fixture.project().root)).content).toBe(text);
    });
  }
}

/** A backend that does not declare `writable` refuses writes and changes nothing. */
function describeReadOnly(fixture: BackendFixture, options: DescribeMemoryBackendOptions): void {
  it('refuses writes with READ_ONLY and changes nothing', async () => {
    const backend = fixture.backend();
    const { root } = fixture.project();
    await options.seed?.(root, 'keep me\n');
    const before = await snapshotTree(root);
    const error = await expectCode(backend.write(root, 'new'), 'READ_ONLY');
    expect(MemoryBackendError.isInstance(error)).toBe(true);
    expect((error as MemoryBackendError).backend).toBe(backend.type);
    expect(await snapshotTree(root)).toEqual(before);
  });
}

export type { BackendFixture } from './backend-fixture';
