import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(packageBuild({ entry: ['src/index.ts', 'src/internals.ts'] }));
