import { BLOCK_SEPARATOR, UNIT_END_MARKER, UNIT_START_PREFIX } from './unit-codec';
import type { MemoryCategory } from './unit-types';

/**
 * Normalizes unit text for storage: NFC, `\n` line endings, trimmed, and
 * the `----` rule (a line equal to `----` becomes `---`, so user text never
 * creates a false block boundary).
 */
export function normalizeUnitText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line.trim() === BLOCK_SEPARATOR ? '---' : line.trimEnd()))
    .join('\n')
    .trim();
}

/** True when text would break the marker format if stored verbatim. */
export function containsMarker(text: string): boolean {
  return text.includes(UNIT_START_PREFIX) || text.includes(UNIT_END_MARKER);
}

/**
 * Deterministic category rules, first match wins (docs/UNITS.md lists them
 * with examples; `unit-text.test.ts` checks the table).
 */
export const CATEGORY_RULES: readonly { category: MemoryCategory; pattern: RegExp }[] = [
  {
    category: 'preference',
    pattern:
      /\b(i|we|user|they|he|she) (really )?(prefer|prefers|like|likes|love|loves|hate|hates|dislike|dislikes|want|wants)\b|\b(prefer|preferred|preference|favou?rite|rather than|instead of)\b|\b(always|never|please) (use|write|run|call|ask|add|keep|avoid)\b/i,
  },
  {
    category: 'decision',
    pattern:
      /\b(decided|decide|decision|we will|we'll|going with|agreed|chose|chosen|choose|settled on|switch(ed)? to|migrat(e|ed|ing) to|adopt(ed)?|standardi[sz]e on)\b|^(use|do not use|don't use) /i,
  },
  {
    category: 'entity',
    pattern:
      /[\w.+-]+@[\w-]+\.[\w.]+|\bhttps?:\/\/|\b(is|are) (our|the|a|an) (maintainer|owner|lead|manager|team|service|repo|repository|library|tool|customer|contact|person)\b|\b(works (at|on|for)|maintained by|owned by|named|called)\b/i,
  },
  {
    category: 'fact',
    pattern:
      /\b(is|are|was|were|has|have|had|runs|requires|needs|uses|contains|lives|located|supports|depends on|takes|returns)\b|\d/i,
  },
];

export function inferCategory(text: string): MemoryCategory {
  return CATEGORY_RULES.find((rule) => rule.pattern.test(text))?.category ?? 'other';
}

/** Lowercase, NFKC, punctuation dropped, whitespace collapsed: the key for exact duplicates. */
export function duplicateKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Minimum Jaccard similarity of word sets for a near duplicate. */
export const NEAR_DUPLICATE_THRESHOLD = 0.85;
/** Shorter texts only match exactly: a few shared words say little. */
export const NEAR_DUPLICATE_MIN_WORDS = 5;

/**
 * The duplicate rule: equal normalized keys, or (for texts of at least five
 * distinct words) word-set Jaccard similarity of at least 0.85.
 */
export function isDuplicateText(a: string, b: string): boolean {
  const keyA = duplicateKey(a);
  const keyB = duplicateKey(b);
  if (keyA === keyB) return keyA.length > 0;
  const wordsA = new Set(keyA.split(' '));
  const wordsB = new Set(keyB.split(' '));
  if (wordsA.size < NEAR_DUPLICATE_MIN_WORDS || wordsB.size < NEAR_DUPLICATE_MIN_WORDS)
    return false;
  let shared = 0;
  for (const word of wordsA) if (wordsB.has(word)) shared += 1;
  return shared / (wordsA.size + wordsB.size - shared) >= NEAR_DUPLICATE_THRESHOLD;
}
