import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

const requireHere = createRequire(import.meta.url);

/**
 * Bundles the workspace's own packages from their sources instead of their
 * built dist files (one module per package): with each package's
 * `"sideEffects": false`, esbuild then leaves out every module the entry
 * never reaches, so `cairn search` loads no unit store, lineage or
 * classic zod schemas it does not use.
 */
const workspaceSources: EsbuildPlugin = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@cairn\/[a-z0-9-]+$/ }, (args) => {
      const dir = dirname(realpathSync(requireHere.resolve(`${args.path}/package.json`)));
      const source = join(dir, 'src', 'index.ts');
      return existsSync(source) ? { path: source } : undefined;
    });
  },
};

/**
 * Records the sha256 of a built bundle next to it (`dist/main.cjs.sha256`):
 * the code cache is keyed by it (compile-cache.ts), and reading the record
 * spares each start loading `node:crypto` to hash 450 KB.
 */
function recordContentHash(name: string): NonNullable<Options['onSuccess']> {
  return async () => {
    const file = join('dist', `${name}.cjs`);
    const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
    writeFileSync(`${file}.sha256`, `${hash}\n`);
  };
}

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
  // SQLite binding (an optional dependency of this package too, so the
  // bundle resolves it; required only when it is the driver chosen, so the
  // bundle loads without it), the MCP server (loaded only by `cairn mcp`)
  // and the dashboard server (only by `cairn ui`) stay out.
  // It takes the ownership rule of per-user folders (user-paths/ in the
  // core) from the core's sources, so only those few functions are bundled.
  packageBuild({
    entry: ['src/bin.ts'],
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    dts: false,
    clean: false,
    esbuildPlugins: [workspaceSources],
    noExternal: [/^@cairn\/core$/],
    external: ['@cairn/mcp', '@cairn/server'],
  }),
  packageBuild({
    entry: { main: 'src/main.ts' },
    ...cliBundle,
    onSuccess: recordContentHash('main'),
    noExternal: [/^@cairn\/(?!mcp|server)/, 'zod', 'fastest-levenshtein'],
    external: ['better-sqlite3', '@cairn/mcp', '@cairn/server', 'gpt-tokenizer'],
  }),
  // `cairn search` alone (search-main.ts), from the workspace's sources.
  // This bundle and the hook bundle carry better-sqlite3's JavaScript (see
  // start-process.ts), so the code cache covers it; its addon, and the
  // `bindings` package that would search for the addon, stay outside.
  packageBuild({
    entry: { 'search-main': 'src/search-main.ts' },
    ...cliBundle,
    onSuccess: recordContentHash('search-main'),
    esbuildPlugins: [englishOnlyZodLocales, workspaceSources],
    noExternal: [/^@cairn\//, /^zod(\/|$)/, /^better-sqlite3(\/|$)/, 'fastest-levenshtein'],
    external: ['bindings', 'gpt-tokenizer'],
  }),
  // `cairn hook` and `cairn lifecycle` (hook-main.ts), from the workspace's sources.
  packageBuild({
    entry: { 'hook-main': 'src/hook-main.ts' },
    ...cliBundle,
    onSuccess: recordContentHash('hook-main'),
    esbuildPlugins: [englishOnlyZodLocales, workspaceSources],
    noExternal: [/^@cairn\//, /^zod(\/|$)/, /^better-sqlite3(\/|$)/, 'fastest-levenshtein'],
    external: ['bindings', 'gpt-tokenizer'],
  }),
  // The same CLI with the MCP server and its SDK bundled in, for `cairn mcp`.
  packageBuild({
    entry: { 'mcp-main': 'src/mcp-main.ts' },
    ...cliBundle,
    onSuccess: recordContentHash('mcp-main'),
    noExternal: [
      /^@cairn\//,
      /^zod(\/|$)/,
      /^@modelcontextprotocol\//,
      /^ajv/,
      'fastest-levenshtein',
    ],
    external: ['better-sqlite3', 'gpt-tokenizer'],
  }),
]);
