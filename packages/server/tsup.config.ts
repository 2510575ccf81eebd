import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

/** The UI bundles Preact (MIT): its license goes into dist/ui with the code. */
function writeNotices(): void {
  const dir = dirname(createRequire(import.meta.url).resolve('preact/package.json'));
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((name) => /^licen[cs]e(\.md|\.txt)?$/i.test(name));
  const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `License: ${pkg.license}`;
  const notice = `# Third-party notices\n\napp.js contains the code of the npm package below, under its license.\n\n## ${pkg.name} ${pkg.version} (${pkg.license})\n\n${text}\n`;
  writeFileSync('dist/ui/THIRD-PARTY-NOTICES.md', notice);
}

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
    onSuccess: async () => {
      copyFileSync('src/ui/index.html', 'dist/ui/index.html');
      writeNotices();
    },
  },
]);
