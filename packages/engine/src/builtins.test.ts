import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getMemoryBackend, getRetrievalAdapter, resolveSettings } from '@cairn/core';
import { describeRetrievalAdapter } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { backendOptionsFor, registerBuiltins } from './builtins';

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
