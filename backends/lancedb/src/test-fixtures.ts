import type { Embedder } from '@cairn/core';

/** Test helpers (not part of the package API). */

export {
  fixtureUnit as unit,
  fixtureUnitId as unitId,
  writeWorkspaceFile,
} from '@cairn/testkit';

/** Wraps an embedder and counts the texts it was asked to embed. */
export function countingEmbedder(inner: Embedder): Embedder & { count: () => number } {
  let count = 0;
  return {
    id: inner.id,
    model: inner.model,
    dimensions: inner.dimensions,
    count: () => count,
    embed: async (texts) => {
      count += texts.length;
      return inner.embed(texts);
    },
  };
}
