import { describe, expect, it } from 'vitest';
import type { MemoryBackend } from './contracts/memory-backend';
import { MemoryBackendError } from './errors';
import {
  getMemoryBackend,
  listMemoryBackendTypes,
  type MemoryBackendFactoryOptions,
  registerMemoryBackend,
  registerRetrievalAdapter,
  requestedRetrievalAdapter,
  resolveMemoryBackend,
  resolveMemoryBackendDetailed,
  resolveRetrievalAdapter,
} from './registry';

const capabilities = {
  readable: true,
  writable: false,
  supportsAtomicWrite: false,
  hasConflictResolution: false,
  persistent: false,
};

/** A backend whose name is the option it was built with, so tests see which options it got. */
function fakeBackend(type: string) {
  return {
    type,
    capabilities,
    create: ({ options }: MemoryBackendFactoryOptions): MemoryBackend => ({
      type,
      name: String(options?.label ?? type),
      capabilities,
      read: async () => ({ content: '', exists: false, path: 'MEMORY.md' }),
      write: async () => {
        throw new MemoryBackendError('READ_ONLY', type, 'no');
      },
    }),
  };
}

const project = { rootDir: '/project' };

describe('registries', () => {
  it('fails with BACKEND_UNAVAILABLE when not even the default is registered', () => {
    expect(() => resolveMemoryBackend({ memoryBackendType: 'file' }, project)).toThrowError(
      expect.objectContaining({ code: 'BACKEND_UNAVAILABLE' }),
    );
    expect(() => resolveRetrievalAdapter({})).toThrowError(
      expect.objectContaining({ code: 'BACKEND_UNAVAILABLE' }),
    );
  });

  it('resolves the configured backend, and falls back to file with a warning', () => {
    registerMemoryBackend(fakeBackend('file'));
    registerMemoryBackend(fakeBackend('readonly'));
    expect(listMemoryBackendTypes()).toEqual(['file', 'readonly']);
    expect(getMemoryBackend('readonly')?.type).toBe('readonly');
    expect(resolveMemoryBackend({ memoryBackendType: 'readonly' }, project).type).toBe('readonly');
    expect(resolveMemoryBackend(undefined, project).type).toBe('file');
    const fallback = resolveMemoryBackendDetailed({ memoryBackendType: 'qmd' });
    expect(fallback).toMatchObject({ requested: 'qmd', resolved: 'file' });
    expect(fallback.warning).toMatch(/"qmd" is not registered.*using "file"/);
  });

  it('holds factories: each project gets an instance built with its own options', () => {
    registerMemoryBackend(fakeBackend('file'));
    const first = resolveMemoryBackend({}, { rootDir: '/a', options: { label: 'a' } });
    const second = resolveMemoryBackend({}, { rootDir: '/b', options: { label: 'b' } });
    expect([first.name, second.name]).toEqual(['a', 'b']);
    expect(first).not.toBe(second);
  });

  it('resolves retrieval adapters the same way', () => {
    const registration = {
      id: 'file',
      capabilities: { semantic: false, keyword: true },
      create: () => {
        throw new Error('not created in this test');
      },
    };
    registerRetrievalAdapter(registration);
    expect(resolveRetrievalAdapter({ retrievalAdapter: 'file' }).warning).toBeUndefined();
    const fallback = resolveRetrievalAdapter({ retrievalAdapter: 'lancedb' });
    expect(fallback.value).toBe(registration);
    expect(fallback.warning).toMatch(/lancedb/);
  });

  it('follows memoryBackendType by default (auto), readonly recalling through file', () => {
    const adapter = (id: string) => ({
      id,
      capabilities: { semantic: true, keyword: true },
      create: () => {
        throw new Error('not created in this test');
      },
    });
    registerRetrievalAdapter(adapter('file'));
    registerRetrievalAdapter(adapter('lancedb'));
    expect(requestedRetrievalAdapter({ memoryBackendType: 'lancedb' })).toBe('lancedb');
    expect(requestedRetrievalAdapter({ memoryBackendType: 'readonly' })).toBe('file');
    expect(requestedRetrievalAdapter({})).toBe('file');
    expect(
      requestedRetrievalAdapter({ memoryBackendType: 'lancedb', retrievalAdapter: 'file' }),
    ).toBe('file');
    expect(resolveRetrievalAdapter({ memoryBackendType: 'lancedb' }).resolved).toBe('lancedb');
    // Following a backend nothing registered: the backend's warning says it, once.
    const followed = resolveRetrievalAdapter({
      memoryBackendType: 'qmd',
      retrievalAdapter: 'auto',
    });
    expect(followed).toMatchObject({ requested: 'qmd', resolved: 'file' });
    expect(followed.warning).toBeUndefined();
  });
});
