import { setModuleImporter, settleWriteAheadLogs, useBundledBetterSqlite3 } from '@cairn/engine';
import * as z from 'zod/mini';
import { EXIT } from './exit-codes';
import { outputFlushed, writeStderr } from './io';

export interface StartOptions {
  /**
   * Exit as soon as the command's output is flushed, without Node's
   * teardown: the hook bundle (hook-main.ts) leaves its SQLite connections
   * to the OS, so the WAL checkpoint that closing each one costs (fsyncs,
   * 10 to 40 ms a hook) is paid only once a log outgrows
   * `EXIT_LOG_LIMIT_BYTES` (settleWriteAheadLogs); committed transactions
   * are in the WAL already.
   */
  exitAtOnce?: boolean;
}

/**
 * The write-ahead log a one-event process leaves behind at most: each hook
 * process reads every log it opens in full (about 1 ms a megabyte), so a
 * larger one is folded into its database before the exit, about once in
 * fifty events of a busy session.
 */
const EXIT_LOG_LIMIT_BYTES = 1024 * 1024;

/**
 * The shared start of the bundled binaries (main.ts, search-main.ts, hook-main.ts): on
 * Node 20 a bundle runs through `vm.Script` (see compile-cache.ts), where
 * `import()` is unavailable, so the launcher hands over its own for the MCP
 * server and optional backends. `run` gives the exit code.
 */
export function startProcess(
  importModule: ((specifier: string) => Promise<unknown>) | undefined,
  run: () => Promise<number>,
  options: StartOptions = {},
): void {
  if (importModule) setModuleImporter(importModule);
  // A CLI process parses a handful of inputs and exits: compiling zod's fast
  // paths with `new Function` costs more than it saves here.
  z.config({ jitless: true });
  run()
    .catch((error: unknown) => {
      writeStderr(`cairn: INTERNAL: ${String(error)}\n`);
      return EXIT.INTERNAL;
    })
    .then(async (code) => {
      process.exitCode = code;
      if (options.exitAtOnce) {
        await outputFlushed();
        settleWriteAheadLogs(EXIT_LOG_LIMIT_BYTES);
        process.exit(code);
      }
    });
}

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
