import type { Options } from 'tsup';

/** Shared tsup settings: ESM only, typed, source-mapped, for Node 20+. */
export function packageBuild(overrides: Options = {}): Options {
  return {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...overrides,
  };
}
