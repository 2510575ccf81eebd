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

const cliBundle = {
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  dts: false,
  clean: false,
  shims: true,
  minify: true,
  esbuildPlugins: [englishOnlyZodLocales],
} satisfies Options;

export default defineConfig([
  packageBuild({ entry: ['src/index.ts'] }),
  // The `cairn` binary: a small CommonJS launcher (bin.cjs) and one bundled
  // CommonJS file (main.cjs) holding the CLI, so V8's code cache can cover
  // it on every Node version (see compile-cache.ts): resolving and loading
  // ~150 ESM modules costs more than the work of a search. The native
  // SQLite binding (a dependency of this package too, so the bundle
  // resolves it) and the MCP server (loaded only by `cairn mcp`) stay out.
  packageBuild({
    entry: ['src/bin.ts'],
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    dts: false,
    clean: false,
    external: ['@cairn/mcp'],
  }),
  packageBuild({
    entry: { main: 'src/main.ts' },
    ...cliBundle,
    noExternal: [/^@cairn\/(?!mcp)/, 'zod'],
    external: ['better-sqlite3', '@cairn/mcp'],
  }),
  // The same CLI with the MCP server and its SDK bundled in, for `cairn mcp`.
  packageBuild({
    entry: { 'mcp-main': 'src/mcp-main.ts' },
    ...cliBundle,
    noExternal: [/^@cairn\//, /^zod(\/|$)/, /^@modelcontextprotocol\//, /^ajv/],
    external: ['better-sqlite3'],
  }),
]);
