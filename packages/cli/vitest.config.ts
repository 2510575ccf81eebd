import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every test here starts real `cairn` processes, one after another; on a
    // loaded two-core machine a dozen of them can pass vitest's 5 s default.
    testTimeout: 60_000,
  },
});
