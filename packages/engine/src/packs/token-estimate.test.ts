import { describe, expect, it } from 'vitest';
import {
  ESTIMATE_SAFETY_FACTOR,
  estimateCounter,
  estimateTokenCount,
  loadTokenizer,
} from './token-estimate';

/**
 * The estimate as it was first written: o200k_base's pre-tokenizer pattern
 * as a regular expression (1 hex run, 2 word, 3 digits, 4 punctuation,
 * else a break or spaces) and the same costs. The scanner must agree with
 * it on every text (the estimate adds up in whole 80ths of a token, so
 * its total is exact where this sum in floating point is not).
 */
const PIECES =
  /([0-9a-fA-F]{8,})|([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'s|'t|'re|'ve|'m|'ll|'d)?)|(\p{N}{1,3})|( ?[^\s\p{L}\p{N}]+[\r\n/]*)|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

const isAsciiLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isDigit = (code: number) => code >= 48 && code <= 57;

function hexCost(piece: string): number {
  let digits = 0;
  for (let i = 0; i < piece.length; i += 1) if (isDigit(piece.charCodeAt(i))) digits += 1;
  if (digits === piece.length) return Math.ceil(piece.length / 3);
  if (digits === 0) return 1 + 0.1 * Math.max(0, piece.length - 6);
  return piece.length * 0.85;
}

function wordCost(piece: string): number {
  let cost = 1;
  let letters = piece.length;
  const first = piece.charCodeAt(0);
  if (!isAsciiLetter(first) && first < 128) {
    letters -= 1;
    if (first !== 32) cost += 0.4;
  }
  let nonAscii = 0;
  for (let i = 0; i < piece.length; i += 1) if (piece.charCodeAt(i) > 127) nonAscii += 1;
  if (nonAscii > 1) cost += 0.7 * (nonAscii - 1);
  return cost + 0.1 * Math.max(0, letters - 6);
}

function punctuationCost(piece: string): number {
  const signs = piece.trim();
  let changes = 0;
  for (let i = 1; i < signs.length; i += 1) {
    if (signs.charCodeAt(i) !== signs.charCodeAt(i - 1)) changes += 1;
  }
  const mixed = 1 + 0.7 * Math.max(0, signs.length - 2);
  return Math.min(mixed, 1 + changes + signs.length / 16);
}

function referenceCount(text: string): number {
  let total = 0;
  PIECES.lastIndex = 0;
  for (let match = PIECES.exec(text); match !== null; match = PIECES.exec(text)) {
    if (match[1] !== undefined) total += hexCost(match[1]);
    else if (match[2] !== undefined) total += wordCost(match[2]);
    else if (match[4] !== undefined) total += punctuationCost(match[4]);
    else total += 1;
  }
  // The sum in floating point may land a hair above a whole number (15.000000000000002).
  return Math.ceil(total - 1e-9);
}

/** Seeded, so a failure names a text that fails again. */
function random(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

/**
 * Pieces that meet every branch of the pattern: ASCII of every kind, hex
 * runs around the 8-digit edge, contractions, camelCase and ALLCAPS,
 * accented and CJK letters, titlecase (ǅ) and modifier (ʰ) letters,
 * combining marks, other scripts' digits and numerals, non-BMP letters
 * (𝐀, 𐐀𐐨, 𠀀), marks (U+1D165) and symbols (emoji), lone surrogates, and the white space
 * JavaScript's `\s` knows beyond ASCII.
 */
const ALPHABET = [
  ...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)),
  'deadbeef',
  'cafe1234',
  '0123456',
  'abcdef0123',
  "'s",
  "'ll",
  "'re",
  "'x",
  'HTTPServer',
  'ABC',
  'camelCase',
  'é',
  'É',
  'ß',
  '日本',
  '語',
  'ǅ',
  'ʰ',
  'ー',
  '\u0301',
  '\u0308',
  '٣',
  'Ⅻ',
  '½',
  '𝐀',
  '𐐀',
  '𐐨',
  '𠀀',
  '\u{1d165}',
  '😀',
  '\ud800',
  '\udc00',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u3000',
  '\ufeff',
  '\u1680',
  '  ',
  '\r\n',
  '---',
  '//',
];

describe('estimateTokenCount', () => {
  it('agrees with the pattern it was written from, on random texts of every kind of character', () => {
    const next = random(20_261_128);
    for (let round = 0; round < 20_000; round += 1) {
      const length = 1 + next(round < 10_000 ? 6 : 40);
      let text = '';
      for (let i = 0; i < length; i += 1) text += ALPHABET[next(ALPHABET.length)];
      const expected = referenceCount(text);
      if (estimateTokenCount(text) !== expected) {
        expect({ text, count: estimateTokenCount(text) }).toEqual({ text, count: expected });
      }
    }
  });

  it('agrees with the pattern on prose, code, diffs, logs and Markdown', () => {
    const texts = [
      'Use pnpm for dependency management in this workspace.',
      "It's the team's call: we'll ship what they've tested, I'm told, and you'd agree.",
      'export function estimateTokenCount(text: string): number {\n  return 0;\n}\n',
      'diff --git a/x.ts b/x.ts\n@@ -1,3 +1,4 @@\n-const a = 1;\n+const a = 2;\n',
      'Error: ENOENT: no such file or directory, open /tmp/x.json\n    at Object.openSync (node:fs:573:3)',
      '## Heading\n\n- [x] item `code` **bold** <!-- cairn:pack:start -->\n\n| a | b |\n| --- | --- |',
      'commit e723a44b5c0d9f1e2a3b4c5d6e7f8a9b0c1d2e3f UUID 3da4c1ba-b8bf-416b-8a26-4d59d4febcdb',
      'Déjà vu: naïve café — 日本語のテキスト, 한국어, Ελληνικά, русский текст; ½ + Ⅻ = ٣',
      '   leading spaces\t\ttabs\n\n\n  trailing   \n',
      '😀 emoji 👍🏽 and 𝐀𝐁𝐂 maths, ǅungla ʰaspirated',
    ];
    for (const text of texts) expect(estimateTokenCount(text)).toBe(referenceCount(text));
  });
});

/** A few texts of each kind a pack carries: units, tool output, Markdown. */
const SAMPLES = [
  'We decided to use pnpm workspaces; tests run with vitest 4 and every package builds with tsup.',
  'Caroline: I went to the LGBTQ support group yesterday and it was so powerful, honestly.',
  'The staging database lives on db-staging-03 and needs the VPN; ask Priya for access.',
  [
    ' FAIL  src/session/token-store.test.ts > refreshToken > retries once on 401',
    'AssertionError: expected 2 to be 1 // Object.is equality',
    '    at /home/dev/project/src/session/token-store.test.ts:48:27',
    '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
    '',
    ' Test Files  1 failed | 41 passed (42)',
    '      Tests  1 failed | 318 passed (319)',
  ].join('\n'),
  [
    'diff --git a/src/config.ts b/src/config.ts',
    '@@ -12,7 +12,8 @@ export function loadConfig(path: string): Config {',
    '-  const raw = readFileSync(path);',
    "+  const raw = readFileSync(path, 'utf8');",
    '+  if (raw.trim() === "") return DEFAULT_CONFIG;',
    '   return parseConfig(JSON.parse(raw));',
  ].join('\n'),
  [
    '## Budgets',
    '',
    'One budget covers everything Cairn injects in a turn. Per-plane shares are',
    'settings (`CAIRN_MEMORY_SHARE_PLANNING`, ...), and unused share flows to the',
    'next plane. See [CONFIG.md](CONFIG.md) for the table.',
    '',
    '| Setting | Default |',
    '| --- | --- |',
    '| `memory.contextBudgetTokens` | `2000` |',
  ].join('\n'),
];

describe('token counting', () => {
  it('counts with the o200k_base tokenizer, loaded once on first use', async () => {
    const first = loadTokenizer();
    expect(loadTokenizer()).toBe(first);
    const tokenizer = await first;
    expect(tokenizer.name).toBe('o200k_base');
    expect(tokenizer.count('Use pnpm for installs; tests run with vitest.')).toBe(12);
    expect(tokenizer.count('')).toBe(0);
  });

  it('counts text that spells a special token instead of refusing it', async () => {
    const tokenizer = await loadTokenizer();
    expect(tokenizer.count('ignore this <|endoftext|><|im_start|>system')).toBeGreaterThan(5);
  });

  it('estimates within 5% of the tokenizer over units, tool output and Markdown', async () => {
    const tokenizer = await loadTokenizer();
    const exact = SAMPLES.reduce((sum, text) => sum + tokenizer.count(text), 0);
    const estimate = SAMPLES.reduce((sum, text) => sum + estimateTokenCount(text), 0);
    expect(Math.abs(estimate / exact - 1)).toBeLessThan(0.05);
  });

  it('budgets with the estimate raised by its safety factor', () => {
    for (const text of ['', ...SAMPLES, 'x'.repeat(300)]) {
      expect(estimateCounter.count(text)).toBe(
        Math.ceil(estimateTokenCount(text) * ESTIMATE_SAFETY_FACTOR),
      );
    }
  });

  it('gives the same count for a text seen again, after many other texts too', () => {
    const first = SAMPLES.map((text) => estimateCounter.count(text));
    // About 2M characters of other texts: more than the counts kept.
    for (let i = 0; i < 400; i += 1) estimateCounter.count(`${i} ${'lorem ipsum '.repeat(400)}`);
    expect(SAMPLES.map((text) => estimateCounter.count(text))).toEqual(first);
    expect(
      SAMPLES.map((text) => Math.ceil(estimateTokenCount(text) * ESTIMATE_SAFETY_FACTOR)),
    ).toEqual(first);
  });

  it('stays linear on adversarial inputs (every piece is consumed or fails within a bounded look)', () => {
    const size = 200_000;
    for (const text of [
      '1'.repeat(size),
      'A'.repeat(size),
      ' '.repeat(size),
      'a1'.repeat(size / 2),
      '\u65e5'.repeat(size),
      '-+'.repeat(size / 2),
    ]) {
      expect(estimateTokenCount(text)).toBeGreaterThan(0);
    }
  });

  it('estimates by pieces: words, digit groups, punctuation, breaks, non-ASCII', () => {
    expect(estimateTokenCount('')).toBe(0);
    expect(estimateTokenCount('word')).toBe(1);
    expect(estimateTokenCount('internationalization')).toBe(3);
    expect(estimateTokenCount('1234567')).toBe(3);
    expect(estimateTokenCount('日本語')).toBe(3);
    // A commit id barely merges: close to one token a character, as the tokenizer counts it.
    expect(estimateTokenCount('e723a44b5c0d9f1e2a3b4c5d6e7f8a9b0c1d2e3f')).toBe(34);
    expect(estimateTokenCount('-'.repeat(64))).toBe(5);
    // Far fewer tokens than characters for prose; a long text costs in proportion.
    const line = 'the quick brown fox jumps over the lazy dog\n';
    expect(estimateTokenCount(line.repeat(1000))).toBeGreaterThan(
      estimateTokenCount(line.repeat(100)) * 9.9,
    );
  });
});
