import { CairnError, type Embedder, embedderKey } from '@cairn/core';

const EMBED_BATCH = 64;

/**
 * Embeds `texts` 64 at a time, for backends that store the vectors
 * elsewhere (LanceDB, Qdrant). Output that is not one vector of the
 * declared size of finite numbers per text throws INTERNAL naming the embedder.
 */
export async function embedInBatches(embedder: Embedder, texts: string[]): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let at = 0; at < texts.length; at += EMBED_BATCH) {
    const batch = texts.slice(at, at + EMBED_BATCH);
    const out = await embedder.embed(batch);
    const bad =
      out.length !== batch.length ||
      out.some((v) => v.length !== embedder.dimensions || !v.every(Number.isFinite));
    if (bad) {
      throw new CairnError(
        'INTERNAL',
        `Embedder "${embedderKey(embedder)}" returned malformed vectors`,
        {
          hint: `it must return one vector of ${embedder.dimensions} finite numbers per text`,
        },
      );
    }
    vectors.push(...out);
  }
  return vectors;
}
