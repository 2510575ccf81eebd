import { CairnError } from '@cairn/core';
import { importOptionalModule } from '../optional-packages';
import { estimateTokenCount } from './token-estimate';

/** Counts the tokens of a text; `name` goes into a pack's receipt. */
export interface TokenCounter {
  readonly name: 'estimate' | 'o200k_base';
  count(text: string): number;
}

/** The estimate: no module to load, for the hook path. */
export const estimateCounter: TokenCounter = { name: 'estimate', count: estimateTokenCount };

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
    tokenizer = (await importOptionalModule(TOKENIZER_MODULE)) as TokenizerModule;
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
