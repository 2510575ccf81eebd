import { stemmer } from 'stemmer';

/*
 * The stem a search index stores for a word (Porter's algorithm): every
 * form of a word meets on one stem (`deploy`, `deploys`, `deployment`;
 * `cancel`, `cancelled`, `cancellation`; `approve`, `approval`). The one
 * place Cairn stems: the file index stores these stems and looks its
 * query terms up by them, and the pack's relevance judge compares terms by
 * them, so what a search matched, the judge matches too.
 */

const stems = new Map<string, string>();
/** Past this many words the memo starts again: queries and items repeat their words. */
const MAX_MEMO = 20_000;

/** The Porter stem of a lowercase word, memoized. */
export function wordStem(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= MAX_MEMO) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}
