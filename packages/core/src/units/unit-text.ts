import { BLOCK_SEPARATOR } from './unit-codec';
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

/**
 * The prefix every Cairn marker comment shares: unit items, the MEMORY.md
 * head, thread heads, and any marker added later.
 */
export const CAIRN_MARKER_PREFIX = '<!-- cairn:';

/** `<!-- cairn:` and its spacing and case variants. */
const MARKER_OPENING = /<!--(\s*)cairn:/i;

/** True when text holds a Cairn marker comment, which would break a managed format if stored verbatim. */
export function containsMarker(text: string): boolean {
  return MARKER_OPENING.test(text);
}

const REPLACEMENT_OR_LONE_SURROGATE =
  /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when text is not clean UTF-8 text: it holds NUL, U+FFFD (what
 * invalid UTF-8 decodes to) or a lone surrogate (which UTF-8 cannot encode).
 */
export function containsBinary(text: string): boolean {
  return text.includes('\u0000') || REPLACEMENT_OR_LONE_SURROGATE.test(text);
}

/**
 * Makes text safe to render inside a Cairn managed region (MEMORY.md's
 * head, a thread head, injected context): a `<!-- cairn:` sequence gets a
 * zero-width space after `cairn`, so it can no longer open or close a
 * marker, and still reads the same.
 */
export function escapeMarkers(text: string): string {
  return text.replace(new RegExp(MARKER_OPENING.source, 'gi'), '<!--$1cairn\u200b:');
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

/** What the duplicate rule compares of a text, computed once per text. */
export interface DuplicateSignature {
  key: string;
  words: ReadonlySet<string>;
}

export function duplicateSignature(text: string): DuplicateSignature {
  const key = duplicateKey(text);
  return { key, words: new Set(key.split(' ')) };
}

/**
 * The duplicate rule: equal normalized keys, or (for texts of at least five
 * distinct words) word-set Jaccard similarity of at least 0.85.
 */
export function isDuplicateText(a: string, b: string): boolean {
  return isDuplicateSignature(duplicateSignature(a), duplicateSignature(b));
}

/** The duplicate rule over signatures: a workspace scan keeps them, so a check is a set lookup. */
export function isDuplicateSignature(a: DuplicateSignature, b: DuplicateSignature): boolean {
  if (a.key === b.key) return a.key.length > 0;
  const small = Math.min(a.words.size, b.words.size);
  const large = Math.max(a.words.size, b.words.size);
  // Jaccard is at most small / large: most pairs are decided without a lookup.
  if (small < NEAR_DUPLICATE_MIN_WORDS || small < large * NEAR_DUPLICATE_THRESHOLD) return false;
  let shared = 0;
  for (const word of a.words) if (b.words.has(word)) shared += 1;
  return shared / (a.words.size + b.words.size - shared) >= NEAR_DUPLICATE_THRESHOLD;
}
