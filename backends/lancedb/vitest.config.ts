import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // LanceDB's native logger warns about near-empty k-means clusters when the tests build a
    // vector index over a few hundred rows; that is expected at this size, so only errors show.
    env: { LANCEDB_LOG: 'error' },
  },
});
