import type { MemoryBackend, MemoryBackendCapabilities } from '@cairn/core';
import type { TempProject } from './tree-snapshot';

/** Per-test fixtures shared by the split-out parts of the suite. */
export interface BackendFixture {
  capabilities: MemoryBackendCapabilities;
  backend: () => MemoryBackend;
  project: () => TempProject;
  create: () => Promise<MemoryBackend>;
}
