import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// dist/plugin.js is the module OpenCode loads (inside its Bun runtime); it
// exports the plugin alone, so its hooks factory is a subpath of its own.
// Only these two entries import the engine (tools/repo import-boundaries.test.ts).
export default defineConfig(
  packageBuild({ entry: ['src/index.ts', 'src/plugin.ts', 'src/plugin-hooks.ts'] }),
);
