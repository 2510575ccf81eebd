import { useBundledBetterSqlite3 } from '@cairn/engine';

/**
 * Hands the SQLite loader the copy of better-sqlite3's JavaScript that this
 * bundle carries (tsup.config.ts bundles it into hook-main.cjs and
 * search-main.cjs; the addon stays in node_modules). Loaded from the bundle,
 * it is compiled once into the bundle's V8 code cache instead of being
 * resolved, read and compiled from ten files on every process start. The
 * loader uses it only when the installed package is the same version.
 * These literal `require` calls are what the bundler follows: only a
 * CommonJS bundle can call this.
 */
export function carryBetterSqlite3(): void {
  useBundledBetterSqlite3({
    version: (require('better-sqlite3/package.json') as { version: string }).version,
    load: () => require('better-sqlite3'),
  });
}
