import type { CorpusCase } from './corpus-types';
import * as js from './javascript-corpus';
import * as native from './native-corpus';
import * as tools from './tools-corpus';
import * as variants from './variant-corpus';

/** Every corpus case, each ecosystem's file in turn. */
export const ALL_CASES: readonly CorpusCase[] = [
  ...Object.values(js),
  ...Object.values(native),
  ...Object.values(tools),
  ...Object.values(variants),
];
