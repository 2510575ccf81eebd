import { CairnError, textMemo } from '@cairn/core';
import { importEngineDependency } from '../runtime';
import { estimateTokenCount } from './token-estimate';

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
