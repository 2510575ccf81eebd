import { describe, expect, it } from 'vitest';
import type { MemoryBackend } from './contracts/memory-backend';
import { MemoryBackendError } from './errors';
import {
  getMemoryBackend,
  listMemoryBackendTypes,
  registerMemoryBackend,
  registerRetrievalAdapter,
  resolveMemoryBackend,
  resolveMemoryBackendDetailed,
  resolveRetrievalAdapter,
} from './registry';

function fakeBackend(type: string): MemoryBackend {
  return {
    type,
    name: type,
    capabilities: {
      readable: true,
      writable: false,
      supportsAtomicWrite: false,
      hasConflictResolution: false,
      persistent: false,
    },
    read: async () => ({ content: '', exists: false, path: 'MEMORY.md' }),
    write: async () => {
      throw new MemoryBackendError('READ_ONLY', type, 'no');
    },
  };
}

describe('registries', () => {
  it('fails with BACKEND_UNAVAILABLE when not even the default is registered', () => {
    expect(() => resolveMemoryBackend({ memoryBackendType: 'file' })).toThrowError(
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
    expect(resolveMemoryBackend({ memoryBackendType: 'readonly' }).type).toBe('readonly');
    expect(resolveMemoryBackend().type).toBe('file');
    const fallback = resolveMemoryBackendDetailed({ memoryBackendType: 'qmd' });
    expect(fallback).toMatchObject({ requested: 'qmd', resolved: 'file' });
    expect(fallback.warning).toMatch(/"qmd" is not registered.*using "file"/);
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
});
