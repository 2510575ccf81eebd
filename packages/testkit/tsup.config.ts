import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// The child entry runs in its own process, killed mid-write by the suite; the seeded
// generator is an entry of its own so generated data needs no vitest.
export default defineConfig(
  packageBuild({
    entry: ['src/index.ts', 'src/backend-child.ts', 'src/seeded-random.ts'],
    external: ['vitest'],
  }),
);
