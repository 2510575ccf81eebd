#!/usr/bin/env node
import module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { requireWithCompileCache } from './compile-cache';

interface CliBundle {
  main(importModule: (specifier: string) => Promise<unknown>): void;
}

// The CLI is one bundled CommonJS file. Node 22.1+ caches compiled code
// between runs itself; on older Node a small V8 code cache does the same,
// since hooks start a short-lived process per event.
function loadCli(): CliBundle {
  const main = fileURLToPath(new URL('./main.cjs', import.meta.url));
  const { enableCompileCache } = module as { enableCompileCache?: () => unknown };
  if (!enableCompileCache) return requireWithCompileCache(main) as CliBundle;
  enableCompileCache();
  return createRequire(import.meta.url)(main) as CliBundle;
}

// ESM is imported from this module, where dynamic import() always works.
loadCli().main((specifier) => import(specifier));
