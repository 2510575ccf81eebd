import { getMemoryBackend, getRetrievalAdapter } from '@cairn/core';
import { describeRetrievalAdapter } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { registerBuiltins } from './builtins';

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
