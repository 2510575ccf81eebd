import { copyFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig([
  packageBuild({ clean: false }),
  // The dashboard UI: one script and one stylesheet for the browser, with
  // Preact bundled in, so the page loads nothing from another origin.
  {
    entry: { app: 'src/ui/main.tsx' },
    outDir: 'dist/ui',
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    dts: false,
    sourcemap: false,
    clean: false,
    minify: true,
    noExternal: [/.*/],
    tsconfig: 'src/ui/tsconfig.json',
    esbuildOptions(options) {
      options.jsx = 'automatic';
      options.jsxImportSource = 'preact';
    },
    onSuccess: async () => copyFileSync('src/ui/index.html', 'dist/ui/index.html'),
  },
]);
