import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// dist/plugin.js is the module OpenCode loads (inside its Bun runtime).
export default defineConfig(packageBuild({ entry: ['src/index.ts', 'src/plugin.ts'] }));
