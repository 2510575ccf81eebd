import { wordRuns } from '../units/word-runs';
import type { Embedder } from './embedder';

export interface HashEmbedderOptions {
  /** Vector size; default 256. */
  dimensions?: number;
}

/**
 * FNV-1a, 32 bits, then murmur3's finalizer: FNV alone leaves the low bits
 * of similar strings correlated, and the bucket is taken from them.
 */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * Function words carry no topic: hashed in, they make every text look
 * alike. Kept short and private; the keyword index has its own list.
 */
const FUNCTION_WORDS = new Set(
  `a an and are as at be been but by can could did do does for from had has have he her him his
  how i if in into is it its me my no not of on or our she so that the their them then there
  these they this those to was we were what when where which who whom why will with would you
  your`.split(/\s+/),
);

/** Weights: the word itself, its neighbour pair, and its character trigrams together. */
const WORD_WEIGHT = 1;
const PAIR_WEIGHT = 0.5;
const TRIGRAMS_WEIGHT = 0.6;

type Add = (feature: string, weight: number) => void;

function addFeatures(text: string, add: Add): void {
  const words = wordRuns(text.toLowerCase()).filter((word) => !FUNCTION_WORDS.has(word));
  for (const [index, word] of words.entries()) {
    add(`w:${word}`, WORD_WEIGHT);
    if (index > 0) add(`b:${words[index - 1]} ${word}`, PAIR_WEIGHT);
    const padded = `^${word}$`;
    const count = padded.length - 2;
    // Spread over the trigrams, so a long word does not outweigh a short one.
    const each = TRIGRAMS_WEIGHT / Math.sqrt(count);
    for (let i = 0; i < count; i += 1) add(`c:${padded.slice(i, i + 3)}`, each);
  }
}

/**
 * A deterministic, offline embedder: content words (function words left
 * out), neighbouring word pairs and character trigrams, hashed into signed
 * buckets with fixed weights, L2-normalized. No model, no network; it
 * captures spelling overlap (plural, tense, compounds, typos), not meaning.
 */
export function createHashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 8 || dimensions > 8192) {
    throw new RangeError('hash embedder dimensions must be an integer from 8 to 8192');
  }
  const embedOne = (text: string): number[] => {
    const vector = new Array<number>(dimensions).fill(0);
    addFeatures(text, (feature, weight) => {
      const hash = hash32(feature);
      vector[hash % dimensions]! += hash & 0x80000000 ? -weight : weight;
    });
    let sum = 0;
    for (const value of vector) sum += value * value;
    const norm = Math.sqrt(sum);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  };
  return {
    id: 'hash',
    model: 'fnv1a-fmix-content-words-pairs-trigrams-v2',
    dimensions,
    embed: async (texts) => texts.map(embedOne),
  };
}
