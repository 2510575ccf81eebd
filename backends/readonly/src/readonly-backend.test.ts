import { createFileBackend } from '@cairn/backend-file';
import type { MemoryBackend } from '@cairn/core';
import { MemoryBackendError } from '@cairn/core';
import { describeMemoryBackend, makeTempProject } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createReadonlyBackend, readonlyCapabilities } from './index';

describeMemoryBackend({
  name: 'readonly over file',
  capabilities: readonlyCapabilities,
  create: () => createReadonlyBackend({ inner: createFileBackend() }),
  seed: async (rootDir, content) => {
    await createFileBackend().write(rootDir, content);
  },
});

describeMemoryBackend({
  name: 'readonly without an inner backend',
  capabilities: readonlyCapabilities,
  create: () => createReadonlyBackend(),
});

describe('readonly backend', () => {
  it('reads as empty instead of throwing when the inner backend fails', async () => {
    const failing: MemoryBackend = {
      ...createFileBackend(),
      read: async () => {
        throw new MemoryBackendError('READ_FAILED', 'file', 'disk on fire');
      },
    };
    const project = await makeTempProject();
    const result = await createReadonlyBackend({ inner: failing }).read(project.root);
    expect(result).toMatchObject({ content: '', exists: false });
    await project.cleanup();
  });

  it('search returns nothing even when the inner backend would find something', async () => {
    const project = await makeTempProject();
    await createFileBackend().write(project.root, 'findable words\n');
    const readonly = createReadonlyBackend({ inner: createFileBackend() });
    expect(await readonly.search!(project.root, { query: 'findable' })).toEqual([]);
    expect((await readonly.read(project.root)).content).toBe('findable words\n');
    await project.cleanup();
  });
});
