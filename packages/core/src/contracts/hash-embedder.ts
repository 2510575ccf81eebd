import type { Embedder } from './embedder';

export interface HashEmbedderOptions {
  /** Vector size; default 256. */
  dimensions?: number;
}

/** FNV-1a, 32 bits: fast, stable across platforms and releases. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function features(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const [index, word] of words.entries()) {
    out.push(`w:${word}`);
    if (index > 0) out.push(`b:${words[index - 1]} ${word}`);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i += 1) out.push(`c:${padded.slice(i, i + 3)}`);
  }
  return out;
}

/**
 * A deterministic, offline embedder: words, word pairs and character
 * trigrams hashed into signed buckets, L2-normalized. No model, no network;
 * it captures spelling overlap (plural, tense, compounds), not meaning.
 */
export function createHashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 8 || dimensions > 8192) {
    throw new RangeError('hash embedder dimensions must be an integer from 8 to 8192');
  }
  const embedOne = (text: string): number[] => {
    const vector = new Array<number>(dimensions).fill(0);
    for (const feature of features(text)) {
      const hash = fnv1a(feature);
      vector[hash % dimensions]! += hash & 0x80000000 ? -1 : 1;
    }
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  };
  return {
    id: 'hash',
    model: 'fnv1a-words-bigrams-trigrams-v1',
    dimensions,
    embed: async (texts) => texts.map(embedOne),
  };
}
