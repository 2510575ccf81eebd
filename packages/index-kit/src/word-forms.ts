/*
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
