import { formatError, readProjectGlossary, wordRuns } from '@cairn/core';
import { isStopWord } from './query-terms';
import { SOFTWARE_GLOSSARY } from './software-glossary';
import { baseForm, wordForms } from './word-forms';

/*
 * The vocabulary gap, offline: a query that says "who owns" also looks for
 * "maintainer", one that says "too many requests" for "429". Two sources:
 * the software glossary kept in this package (and a project's own groups,
 * `.cairn/glossary.json`), and WordNet synonyms, loaded on the first
 * query that needs them. Expanded terms weigh less than the query's own.
 */

/** One term a query is widened with: a word, or a phrase whose words must follow each other. */
export interface QueryExpansion {
  /** Lowercase words; more than one is a phrase. */
  words: string[];
  /** Relative to the query's own words (weight 1). */
  weight: number;
  source: 'forms' | 'compound' | 'glossary' | 'project' | 'wordnet';
  /** For a WordNet synonym: the query word it stands for (an index may use it only where that word is missing). */
  of?: string;
  /**
   * The query's words it stands for, lowercase as written (`429` for
   * `too`, `many`, `requests`): where a judge of relevance credits a text
   * that holds it instead of them.
   */
  standsFor: string[];
}

/**
 * Weights of each source: a compound written apart or joined (`road trip`,
 * `roadtrip`) is the same word; an irregular form (`went` for `go`) the
 * same word in another tense or number, which also says something else;
 * a project's words are its own; WordNet's the least specific.
 */
export const EXPANSION_WEIGHTS = {
  compound: 0.8,
  project: 0.6,
  forms: 0.5,
  glossary: 0.5,
  wordnet: 0.25,
} as const;
/** At most this many expansions per query (the most specific sources first). */
export const MAX_EXPANSIONS = 24;
/**
 * WordNet is asked only for queries of at most this many content words: a
 * short query has no word to spare, a long one (a prompt) says enough.
 */
export const WORDNET_MAX_QUERY_WORDS = 8;
/** At most this many WordNet synonyms for one word of the query. */
const WORDNET_PER_WORD = 3;
/** The longest glossary phrase matched, in words. */
const MAX_PHRASE_WORDS = 5;

/** A member's key: its words' base forms joined by spaces. */
function keyOf(words: readonly string[]): string {
  return words.map(baseForm).join(' ');
}

/** Groups of a glossary, looked up by any member's key. */
export interface GlossaryIndex {
  groups: string[][][];
  byKey: Map<string, number[]>;
}

/** Indexes groups of members (each member a word or a phrase). */
export function indexGlossary(groups: readonly (readonly string[])[]): GlossaryIndex {
  const index: GlossaryIndex = { groups: [], byKey: new Map() };
  for (const group of groups) {
    const members = group
      .map((member) => wordRuns(member.toLowerCase()))
      .filter((words) => words.length > 0 && words.length <= MAX_PHRASE_WORDS);
    if (members.length < 2) continue;
    const at = index.groups.push(members) - 1;
    for (const member of members) {
      const key = keyOf(member);
      const list = index.byKey.get(key) ?? [];
      if (!list.includes(at)) list.push(at);
      index.byKey.set(key, list);
    }
  }
  return index;
}

let builtIn: GlossaryIndex | undefined;

/** The software glossary, indexed on first use. */
export function softwareGlossary(): GlossaryIndex {
  builtIn ??= indexGlossary(SOFTWARE_GLOSSARY.map((line) => line.split('|')));
  return builtIn;
}

const projectIndexes = new WeakMap<string[][], GlossaryIndex>();

/**
 * The project's own glossary (`.cairn/glossary.json`), indexed once per
 * version of the file; the search and the pack's relevance judge read the
 * same one. A broken file is reported through `warn` and the caller goes
 * on without it; with no `warn`, its typed error is thrown.
 */
export function projectGlossaryIndex(
  rootDir: string,
  warn?: (message: string) => void,
): GlossaryIndex | undefined {
  let groups: string[][] | undefined;
  try {
    groups = readProjectGlossary(rootDir);
  } catch (error) {
    if (!warn) throw error;
    warn(`search ignores the project glossary until it is fixed: ${formatError(error)}`);
    return undefined;
  }
  if (!groups) return undefined;
  let index = projectIndexes.get(groups);
  if (!index) {
    index = indexGlossary(groups);
    projectIndexes.set(groups, index);
  }
  return index;
}

/** Every group some run of 1..MAX_PHRASE_WORDS consecutive query words names: its keys and words. */
function matchedGroups(glossary: GlossaryIndex, words: readonly string[]) {
  const found = new Map<number, { keys: Set<string>; words: Set<string> }>();
  for (let start = 0; start < words.length; start += 1) {
    for (let end = start + 1; end <= Math.min(words.length, start + MAX_PHRASE_WORDS); end += 1) {
      const run = words.slice(start, end);
      const key = keyOf(run);
      for (const group of glossary.byKey.get(key) ?? []) {
        const match = found.get(group) ?? { keys: new Set<string>(), words: new Set<string>() };
        match.keys.add(key);
        for (const word of run) match.words.add(word);
        found.set(group, match);
      }
    }
  }
  return found;
}

/** The other members of the groups the query names, each once. */
export function glossaryExpansions(
  glossary: GlossaryIndex,
  queryWords: readonly string[],
  weight: number,
  source: QueryExpansion['source'],
): QueryExpansion[] {
  const out: QueryExpansion[] = [];
  const said = new Set(queryWords.map(baseForm));
  for (const [group, match] of matchedGroups(glossary, queryWords)) {
    for (const member of glossary.groups[group]!) {
      const key = keyOf(member);
      if (match.keys.has(key) || (member.length === 1 && said.has(key))) continue;
      out.push({ words: member, weight, source, standsFor: [...match.words] });
    }
  }
  return out;
}

/** The WordNet table as sorted lines, split on first use. */
let wordnetLines: string[] | undefined;

async function wordnetTable(): Promise<string[]> {
  if (!wordnetLines) {
    const { WORDNET_SYNONYMS } = await import('./wordnet-synonyms');
    wordnetLines = WORDNET_SYNONYMS.split('\n');
  }
  return wordnetLines;
}

/** The line of `word` in the table (binary search on the sorted headwords), or undefined. */
function lineOf(lines: readonly string[], word: string): string | undefined {
  let low = 0;
  let high = lines.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const line = lines[mid]!;
    const head = line.slice(0, line.indexOf(' '));
    if (head === word) return line;
    if (head < word) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}

/** The synonyms of `word` in the table. */
function lookup(lines: readonly string[], word: string): string[] {
  return lineOf(lines, word)?.split(' ').slice(1) ?? [];
}

/** WordNet synonyms of the query's content words (tried as written, then by base form). */
export async function wordnetExpansions(
  contentWords: readonly string[],
  weight: number,
): Promise<QueryExpansion[]> {
  const candidates = contentWords.filter((word) => /^[a-z]{3,}$/.test(word));
  if (candidates.length === 0) return [];
  const lines = await wordnetTable();
  const said = new Set(contentWords.map(baseForm));
  const out: QueryExpansion[] = [];
  for (const word of candidates) {
    const synonyms = lookup(lines, word);
    const found = synonyms.length > 0 ? synonyms : lookup(lines, baseForm(word));
    for (const synonym of found.slice(0, WORDNET_PER_WORD)) {
      if (said.has(baseForm(synonym))) continue;
      out.push({ words: [synonym], weight, source: 'wordnet', of: word, standsFor: [word] });
    }
  }
  return out;
}

/** The other forms of the query's content words (`went` -> `go`, `children` -> `child`). */
export async function formExpansions(
  contentWords: readonly string[],
  weight: number,
): Promise<QueryExpansion[]> {
  const out: QueryExpansion[] = [];
  for (const word of contentWords) {
    if (!/^[a-z]{2,}$/.test(word)) continue;
    const standsFor = [word];
    for (const form of await wordForms(word))
      out.push({ words: [form], weight, source: 'forms', standsFor });
  }
  return out;
}

/** The shortest part a compound is split into (`sun set`, not `sunse t`). */
const MIN_COMPOUND_PART = 3;

/**
 * A compound written the other way: two neighbouring content words joined
 * (`ice cream` -> `icecream`, `time out` -> `timeout`), and a word split
 * where both parts are common English words (WordNet headwords:
 * `roadtrip` -> `road trip`, `screenplay` -> `screen play`), searched as a
 * phrase. A form the notes do not use matches nothing and costs nothing.
 */
export async function compoundExpansions(
  queryWords: readonly string[],
  weight: number,
): Promise<QueryExpansion[]> {
  const out: QueryExpansion[] = [];
  const content = (word: string | undefined) =>
    word !== undefined && /^[a-z]+$/.test(word) && !isStopWord(word);
  for (let at = 1; at < queryWords.length; at += 1) {
    const [left, right] = [queryWords[at - 1], queryWords[at]];
    if (content(left) && content(right)) {
      const standsFor = [left!, right!];
      out.push({ words: [`${left}${right}`], weight, source: 'compound', standsFor });
    }
  }
  const lines = await wordnetTable();
  for (const word of new Set(queryWords)) {
    if (!content(word) || word.length < 2 * MIN_COMPOUND_PART) continue;
    for (let cut = MIN_COMPOUND_PART; cut <= word.length - MIN_COMPOUND_PART; cut += 1) {
      const parts = [word.slice(0, cut), word.slice(cut)];
      if (parts.every((part) => lineOf(lines, part) !== undefined)) {
        out.push({ words: parts, weight, source: 'compound', standsFor: [word] });
      }
    }
  }
  return out;
}

/** What a query is widened with, and from where. */
export interface ExpansionOptions {
  /** A project's own groups (`.cairn/glossary.json`), indexed. */
  project?: GlossaryIndex;
  /** Look words up in WordNet (default true). */
  wordnet?: boolean;
}

/**
 * The expansions of a query: the other forms of its words, the project's
 * glossary, the software glossary, then (for a short query) its compounds
 * written the other way and WordNet synonyms of its content words, each
 * term once (the first source to give it keeps it), at most MAX_EXPANSIONS.
 * `contentWords` are the query's own search terms (stop words left out).
 */
export async function expandQuery(
  query: string,
  contentWords: readonly string[],
  options: ExpansionOptions = {},
): Promise<QueryExpansion[]> {
  const words = wordRuns(query.toLowerCase());
  const found: QueryExpansion[] = await formExpansions(contentWords, EXPANSION_WEIGHTS.forms);
  if (options.project) {
    found.push(...glossaryExpansions(options.project, words, EXPANSION_WEIGHTS.project, 'project'));
  }
  found.push(
    ...glossaryExpansions(softwareGlossary(), words, EXPANSION_WEIGHTS.glossary, 'glossary'),
  );
  if (options.wordnet !== false && contentWords.length <= WORDNET_MAX_QUERY_WORDS) {
    found.push(...(await compoundExpansions(words, EXPANSION_WEIGHTS.compound)));
    found.push(...(await wordnetExpansions(contentWords, EXPANSION_WEIGHTS.wordnet)));
  }
  const own = new Set(contentWords);
  const seen = new Set<string>();
  const out: QueryExpansion[] = [];
  for (const expansion of found) {
    const key = expansion.words.join(' ');
    if (seen.has(key) || (expansion.words.length === 1 && own.has(key))) continue;
    seen.add(key);
    out.push(expansion);
    if (out.length === MAX_EXPANSIONS) break;
  }
  return out;
}
