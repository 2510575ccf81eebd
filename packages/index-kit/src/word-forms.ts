import { stemmer } from 'stemmer';

/*
 * A word's forms, three ways: its irregular forms (`went`, `go`), the
 * Porter stem a search index stores, and the base form glossary members
 * are matched by.
 *
 * The irregular forms of a word: a stemmer maps `walked` onto `walk` but
 * not `went` onto `go` nor `children` onto `child`. A query that says one
 * form also looks for the others (query-expansion.ts), so "when did Maria
 * go to the beach" finds "we went to the beach". The table
 * (irregular-forms.ts, generated from WordNet's exception lists) is split
 * into maps on the first query that needs it.
 */

interface FormIndex {
  /** A lemma -> its irregular forms. */
  forms: Map<string, string[]>;
  /** An irregular form -> its lemmas (`saw` is a form of `see` and a lemma of its own). */
  lemmas: Map<string, string[]>;
}

let loaded: FormIndex | undefined;

async function formIndex(): Promise<FormIndex> {
  if (loaded) return loaded;
  const { IRREGULAR_FORMS } = await import('./irregular-forms');
  const index: FormIndex = { forms: new Map(), lemmas: new Map() };
  for (const line of IRREGULAR_FORMS.split('\n')) {
    const [lemma, ...forms] = line.split(' ');
    index.forms.set(lemma!, forms);
    for (const form of forms) index.lemmas.set(form, [...(index.lemmas.get(form) ?? []), lemma!]);
  }
  loaded = index;
  return index;
}

/**
 * The other forms of a lowercase word: its lemmas and their irregular
 * forms (`went` -> go, goes, going, gone; `child` -> children), without the
 * word itself. Empty for a word with no irregular forms.
 */
export async function wordForms(word: string): Promise<string[]> {
  const index = await formIndex();
  const lemmas = index.lemmas.get(word) ?? (index.forms.has(word) ? [word] : []);
  const out = new Set<string>();
  for (const lemma of lemmas) {
    out.add(lemma);
    for (const form of index.forms.get(lemma) ?? []) out.add(form);
  }
  out.delete(word);
  return [...out];
}

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

/**
 * A word's base form for matching glossary members, the same on both
 * sides: plural and verb endings stripped by simple rules (`owns`,
 * `owned` -> `own`; `libraries` -> `library`). Not a stemmer: it only has
 * to map the forms a developer writes onto one key.
 */
export function baseForm(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) return undouble(w.slice(0, -3));
  if (w.length > 4 && w.endsWith('ed')) return undouble(w.slice(0, -2));
  return w;
}

function undouble(stem: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(stem) && !/(?:ll|ss)$/.test(stem) ? stem.slice(0, -1) : stem;
}
