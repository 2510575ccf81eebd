import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

// plugin.js is OpenClaw's entry (package.json `openclaw.extensions`).
export default defineConfig(packageBuild({ entry: ['src/index.ts', 'src/plugin.ts'] }));
