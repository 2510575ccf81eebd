import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// The child entry runs in its own process, killed mid-write by the suite.
export default defineConfig(
  packageBuild({ entry: ['src/index.ts', 'src/backend-child.ts'], external: ['vitest'] }),
);
