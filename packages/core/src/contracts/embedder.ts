/**
 * The embedding contract. An embedder turns texts into vectors of
 * a fixed dimension; `id` names the provider and `model` the model, and
 * together with `dimensions` they key every stored vector: vectors made by
 * two different (id, model, dimensions) never mix in one index.
 */
export interface Embedder {
  /** The provider: `hash`, `openai`, `transformers`, ... */
  readonly id: string;
  /** The model name as the provider knows it; `hash` uses its algorithm name. */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per text, in order; each has `dimensions` finite numbers. */
  embed(texts: string[]): Promise<number[][]>;
}

/** The key under which vectors of this embedder are stored and cached. */
export function embedderKey(embedder: Pick<Embedder, 'id' | 'model' | 'dimensions'>): string {
  return `${embedder.id}:${embedder.model}:${embedder.dimensions}`;
}
