import { dirname } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { packageBuild } from '../../tsup.base';

/**
 * zod's namespace re-exports every locale (about 300 KB of the bundle);
 * Cairn only ever uses the default English messages, so the bundled binary
 * gets a locales module holding English alone.
 */
type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const englishOnlyZodLocales: EsbuildPlugin = {
  name: 'english-only-zod-locales',
  setup(build) {
    build.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

export default defineConfig([
  packageBuild({ entry: ['src/index.ts'] }),
  // The `cairn` binary is one bundled file: resolving and loading ~150 ESM
  // modules costs more than the work of a search. The native SQLite binding
  // (a dependency of this package too, so the bundle resolves it) and the
  // MCP server (loaded only by `cairn mcp`) stay external.
  packageBuild({
    entry: ['src/bin.ts'],
    dts: false,
    clean: false,
    noExternal: [/^@cairn\/(?!mcp)/, 'zod'],
    external: ['better-sqlite3', '@cairn/mcp'],
    minify: true,
    esbuildPlugins: [englishOnlyZodLocales],
  }),
]);
