/**
 * A tokenizer-free token count for the hook path, where loading a real
 * tokenizer costs more than the whole hook may take. The text is cut the
 * way the o200k_base pre-tokenizer cuts it (words with their leading
 * space or sign, camelCase parts, groups of up to three digits,
 * punctuation runs, line breaks, spaces) and each piece costs one token,
 * plus a little for what BPE splits further: long words, a word glued to
 * a sign, long punctuation runs, hex ids and non-ASCII letters
 * (token-pieces.ts). Checked against gpt-tokenizer (o200k_base) on units,
 * code, diffs, command output and Markdown: each kind's total within 5%
 * (docs/PACKS.md has the figures).
 *
 * The cut, as one pattern (1 a hex run, 2 a word, 3 digits, 4 punctuation,
 * else a break or spaces):
 *
 *   ([0-9a-fA-F]{8,})
 *   | ([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'s|'t|'re|'ve|'m|'ll|'d)?
 *     | [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'s|'t|'re|'ve|'m|'ll|'d)?)
 *   | (\p{N}{1,3}) | ( ?[^\s\p{L}\p{N}]+[\r\n/]*) | \s*[\r\n]+ | \s+(?!\S) | \s+
 *
 * V8 takes tens of milliseconds to compile that pattern's Unicode property
 * classes, more than a hook may spend. So ASCII text goes through the
 * same pattern with its classes narrowed to ASCII (`ASCII_PIECES`, which
 * agrees with it on ASCII text), and the pieces around other characters
 * through a scanner that implements it exactly (token-pieces.ts, which runs
 * as interpreted code in a short process, so it gets as little as can be
 * cut out); token-estimate.test.ts holds both to the full pattern, count
 * for count.
 *
 * Then the counters a pack is costed with: the estimate raised by its
 * safety factor (`estimateCounter`), and the real tokenizer (`loadTokenizer`).
 */
import { CairnError, textMemo } from '@cairn/core';
import { importEngineDependency } from '../runtime';
import { hexCost, punctuationCost, scanPieces, TOKEN, wordCost } from './token-pieces';

const ASCII_PIECES =
  /([0-9a-fA-F]{8,})|([^\r\nA-Za-z0-9]?[A-Z]*[a-z]+(?:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*(?:'s|'t|'re|'ve|'m|'ll|'d)?)|([0-9]{1,3})|( ?[^\sA-Za-z0-9]+[\r\n/]*)|\s*[\r\n]+|\s+(?!\S)|\s+/g;

const NON_ASCII = /[^\0-\x7f]/g;

/** The cost of `text[start, end)`, all ASCII and cut on piece boundaries. */
function asciiPieces(text: string, start: number, end: number): number {
  let total = 0;
  ASCII_PIECES.lastIndex = start;
  while (ASCII_PIECES.lastIndex < end) {
    const match = ASCII_PIECES.exec(text);
    if (match === null) break;
    const to = ASCII_PIECES.lastIndex;
    if (match[1] !== undefined) total += hexCost(text, match.index, to);
    else if (match[2] !== undefined) total += wordCost(text, match.index, to);
    else if (match[4] !== undefined) total += punctuationCost(text, match.index, to);
    else total += TOKEN;
  }
  return total;
}

/**
 * Where the line that starts at `start` ends on a piece boundary: right
 * after a line break, unless the pattern's piece holding that break goes
 * on. A run of white space ends at its last break, and punctuation takes
 * the `[\r\n/]` after it; so the break must be followed by neither `\r`,
 * `\n` nor `/`, nor by white space that holds another break (non-ASCII
 * characters count as white space here: a line is only ever cut later).
 */
function lineEnd(text: string, start: number): number {
  let at = text.indexOf('\n', start);
  while (at >= 0 && at + 1 < text.length) {
    let next = at + 1;
    let code = text.charCodeAt(next);
    while (code === 9 || code === 11 || code === 12 || code === 32 || code > 127) {
      next += 1;
      code = text.charCodeAt(next);
    }
    if (code !== 10 && code !== 13 && code !== 47) return at + 1;
    at = text.indexOf('\n', next + (code === 47 ? 1 : 0));
  }
  return text.length;
}

/**
 * A space after a character that is not white space starts a piece: a
 * piece holds a space only at its start (a word's or punctuation's lead)
 * or inside a run of white space. Only ASCII is judged here.
 */
function spaceStartsPiece(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 32) return false;
  const before = text.charCodeAt(at - 1);
  return before < 128 && before !== 32 && !(before >= 9 && before <= 13);
}

/** The last piece boundary at or before `at`, no earlier than `start` (a boundary). */
function boundaryBefore(text: string, start: number, at: number): number {
  for (let i = at; i > start; i -= 1) if (spaceStartsPiece(text, i)) return i;
  return start;
}

/** The first piece boundary after `at`. */
function boundaryAfter(text: string, at: number): number {
  const line = lineEnd(text, at);
  for (let i = at + 1; i < line; i += 1) if (spaceStartsPiece(text, i)) return i;
  return line;
}

/**
 * Estimated o200k_base tokens in `text` (0 for an empty text). Linear in
 * its length. Each non-ASCII character goes to the scanner with the
 * pieces around it, between two boundaries; the rest to `ASCII_PIECES`.
 */
export function estimateTokenCount(text: string): number {
  let total = 0;
  for (let start = 0; start < text.length; ) {
    NON_ASCII.lastIndex = start;
    if (!NON_ASCII.test(text)) {
      total += asciiPieces(text, start, text.length);
      break;
    }
    const nonAscii = NON_ASCII.lastIndex - 1;
    const from = boundaryBefore(text, start, nonAscii);
    const to = boundaryAfter(text, nonAscii);
    total += asciiPieces(text, start, from) + scanPieces(text, from, to);
    start = to;
  }
  return Math.ceil(total / TOKEN);
}

/** Counts the tokens of a text; `name` goes into a pack's receipt. */
export interface TokenCounter {
  readonly name: 'estimate' | 'o200k_base';
  count(text: string): number;
}

/**
 * What the estimate is multiplied by when it costs a pack. The estimate is
 * within 5% of o200k_base in total on real text, but it undercounts
 * invented words, ids and keys (two to four tokens where it says about
 * one): the highest o200k_base / estimate ratio of a rendered pack was
 * 1.145 over the property test's hostile texts and 1.11 over the bench's
 * lived-in packs (docs/PACKS.md). 1.2 keeps about 5% above the worst seen,
 * at the price of filling a budget of ordinary prose to about 85%.
 */
export const ESTIMATE_SAFETY_FACTOR = 1.2;

/**
 * The estimate as a budgeting counter: no module to load, for the hook
 * path, and raised by `ESTIMATE_SAFETY_FACTOR` so that a pack it costs
 * stays within its budget by the real tokenizer's count too.
 * `estimateTokenCount` is the plain estimate.
 */
export const estimateCounter: TokenCounter = { name: 'estimate', count: countWithMargin };

/**
 * Counts kept for texts seen lately: a long-lived process (the MCP server)
 * costs the same items (a thread's summaries, the pack's frame) on every
 * pack. Oldest out first, about 1M characters of keys at most.
 */
const remembered = textMemo<number>(1_000_000);

function countWithMargin(text: string): number {
  const known = remembered.get(text);
  if (known !== undefined) return known;
  const count = Math.ceil(estimateTokenCount(text) * ESTIMATE_SAFETY_FACTOR);
  remembered.set(text, count);
  return count;
}

/** The tokenizer module Cairn pins (`gpt-tokenizer`, o200k_base encoding). */
export const TOKENIZER_MODULE = 'gpt-tokenizer/encoding/o200k_base';

interface TokenizerModule {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

let loading: Promise<TokenCounter> | undefined;

async function load(): Promise<TokenCounter> {
  let tokenizer: TokenizerModule;
  try {
    // Through the host's importer: the CLI's bundles keep the tokenizer out
    // (2.4 MB of data) and cannot run import() themselves.
    tokenizer = (await importEngineDependency(TOKENIZER_MODULE)) as TokenizerModule;
  } catch (cause) {
    loading = undefined;
    throw new CairnError('INTERNAL', `Could not load the tokenizer (${TOKENIZER_MODULE})`, {
      cause,
      hint: 'reinstall Cairn (the gpt-tokenizer package is missing), or use the estimate',
      details: { module: TOKENIZER_MODULE },
    });
  }
  // Text that spells a special token (`<|endoftext|>`) is counted as plain text, never refused.
  const options = { disallowedSpecial: new Set<string>() };
  return { name: 'o200k_base', count: (text) => tokenizer.countTokens(text, options) };
}

/**
 * The real tokenizer, loaded on first use (about 170 ms and 60 MB in a
 * fresh process, so never on the hook path); later calls share it.
 */
export function loadTokenizer(): Promise<TokenCounter> {
  loading ??= load();
  return loading;
}
