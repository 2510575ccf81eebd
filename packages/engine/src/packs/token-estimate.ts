/**
 * A tokenizer-free token count for the hook path, where loading a real
 * tokenizer costs more than the whole hook may take. The text is cut the
 * way the o200k_base pre-tokenizer cuts it (words with their leading
 * space or sign, camelCase parts, groups of up to three digits,
 * punctuation runs, line breaks, spaces) and each piece costs one token,
 * plus a little for what BPE splits further: long words, a word glued to
 * a sign, long punctuation runs, hex ids and non-ASCII letters. Checked
 * against gpt-tokenizer (o200k_base) on units, code, diffs, command output
 * and Markdown: each kind's total within 5% (docs/PACKS.md has the figures).
 */
const COST = {
  /** Each letter of a word beyond the sixth: long and rare words split. */
  longLetter: 0.1,
  /** A word glued to a sign (`.map`, `` `memory``): often split in two. */
  signPrefix: 0.4,
  /** Each character of a punctuation run beyond the second. */
  punctuation: 0.7,
  /** Each character of a hex id (commit, hash, UUID part): barely merged at all. */
  hexChar: 0.85,
  /** Each non-ASCII character of a word beyond the first (CJK, accents). */
  nonAscii: 0.7,
} as const;

/**
 * Groups: 1 a hex run, 2 a word, 3 digits, 4 punctuation; anything else
 * is a break or spaces (numbered, not named: `exec` without a groups
 * object per piece is about a third faster on a pack's text).
 * Linear: every alternative either consumes what it scanned or fails after
 * a bounded look (the hex run needs 8 characters before it can match; a
 * failed uppercase-then-lowercase word falls to the all-uppercase one over
 * the same letters).
 */
const PIECES =
  /([0-9a-fA-F]{8,})|([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'s|'t|'re|'ve|'m|'ll|'d)?)|(\p{N}{1,3})|( ?[^\s\p{L}\p{N}]+[\r\n/]*)|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

const isAsciiLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isDigit = (code: number) => code >= 48 && code <= 57;

function hexCost(piece: string): number {
  let digits = 0;
  for (let i = 0; i < piece.length; i += 1) if (isDigit(piece.charCodeAt(i))) digits += 1;
  if (digits === piece.length) return Math.ceil(piece.length / 3);
  // Letters only (`deadbeef`, `faded`): costs like a long word.
  if (digits === 0) return 1 + COST.longLetter * Math.max(0, piece.length - 6);
  return piece.length * COST.hexChar;
}

function wordCost(piece: string): number {
  let cost = 1;
  let letters = piece.length;
  const first = piece.charCodeAt(0);
  if (!isAsciiLetter(first) && first < 128) {
    letters -= 1;
    if (first !== 32) cost += COST.signPrefix;
  }
  let nonAscii = 0;
  for (let i = 0; i < piece.length; i += 1) if (piece.charCodeAt(i) > 127) nonAscii += 1;
  if (nonAscii > 1) cost += COST.nonAscii * (nonAscii - 1);
  return cost + COST.longLetter * Math.max(0, letters - 6);
}

/** A run of one repeated sign (`-----`, `+++`) merges well; mixed signs do not. */
function punctuationCost(piece: string): number {
  const signs = piece.trim();
  let changes = 0;
  for (let i = 1; i < signs.length; i += 1) {
    if (signs.charCodeAt(i) !== signs.charCodeAt(i - 1)) changes += 1;
  }
  const mixed = 1 + COST.punctuation * Math.max(0, signs.length - 2);
  return Math.min(mixed, 1 + changes + signs.length / 16);
}

/** Estimated o200k_base tokens in `text` (0 for an empty text). Linear in its length. */
export function estimateTokenCount(text: string): number {
  let total = 0;
  PIECES.lastIndex = 0;
  for (let match = PIECES.exec(text); match !== null; match = PIECES.exec(text)) {
    if (match[1] !== undefined) total += hexCost(match[1]);
    else if (match[2] !== undefined) total += wordCost(match[2]);
    else if (match[4] !== undefined) total += punctuationCost(match[4]);
    else total += 1;
  }
  return Math.ceil(total);
}
