import { CairnError, type Embedder, embedderKey } from '@cairn/core';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';

/**
 * Cairn's Embedder in the shape of LangChain's Embeddings, which is what
 * Mem0's `langchain` embedder provider accepts: Mem0 then embeds with the
 * same vectors as the rest of Cairn, offline when the embedder is.
 * Structural, so @langchain/core is only needed for its types.
 */
export class CairnLangchainEmbeddings implements EmbeddingsInterface {
  readonly embedder: Embedder;

  constructor(embedder: Embedder) {
    this.embedder = embedder;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    if (documents.length === 0) return [];
    const vectors = await this.embedder.embed(documents);
    if (vectors.length !== documents.length) {
      throw this.broken(`returned ${vectors.length} vectors for ${documents.length} texts`);
    }
    for (const vector of vectors) {
      if (vector.length !== this.embedder.dimensions) {
        throw this.broken(
          `returned a vector of ${vector.length} numbers, not ${this.embedder.dimensions}`,
        );
      }
    }
    return vectors;
  }

  async embedQuery(document: string): Promise<number[]> {
    const [vector] = await this.embedDocuments([document]);
    return vector!;
  }

  private broken(reason: string): CairnError {
    return new CairnError('INTERNAL', `The embedder ${embedderKey(this.embedder)} ${reason}`, {
      hint: 'check the embedder configuration (embedder.* settings); the Mem0 mirror was not changed',
      details: { embedder: embedderKey(this.embedder) },
    });
  }
}
