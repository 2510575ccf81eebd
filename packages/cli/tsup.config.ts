import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

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
  }),
]);
