import { wordRuns } from '@cairn/core';
import { ANTONYMS, FAMILIES, NEGATIONS, NUMBER_WORDS, STOP, SYNONYMS } from './pair-vocabulary';

/**
 * Near-duplicate and contradiction detection over unit texts, offline and
 * deterministic. Texts become bags of normalized content words (stop
 * words out, a light stemmer, a small table of software synonyms); two
 * texts are about the same thing when the cosine of their bags is high.
 * They contradict when they are about the same thing and one says the
 * opposite (a negation the other lacks, an antonym) or names a different
 * value in the same slot (a version, a port, a tool of the same family).
 * Measured on a labelled set in `pnpm bench maintenance` (docs/BENCHMARKS.md).
 */

/** A light stemmer: plural and verb endings of English words. */
function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 6) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('es') && /(sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

export interface TextProfile {
  /** Content terms with counts. */
  terms: Map<string, number>;
  negated: boolean;
  /** Numbers and versions the text names (`20`, `5432`, `3.11`). */
  values: Set<string>;
  raw: Set<string>;
  /** What the text names in backticks (symbols, commands, values), lowercased. */
  code: Set<string>;
}

function canonical(word: string): string {
  const synonym = SYNONYMS[word];
  if (synonym !== undefined) return synonym;
  return SYNONYMS[stem(word)] ?? stem(word);
}

/** Profiles of texts seen lately: a long-lived process (the hook server) profiles a unit once. */
const profiles = new Map<string, TextProfile>();
const PROFILES_KEPT = 20_000;

export function profileText(text: string): TextProfile {
  const cached = profiles.get(text);
  if (cached) return cached;
  const profile = buildProfile(text);
  if (profiles.size >= PROFILES_KEPT) profiles.delete(profiles.keys().next().value!);
  profiles.set(text, profile);
  return profile;
}

function buildProfile(text: string): TextProfile {
  const lower = text
    .toLowerCase()
    .replace(/n['’]t\b/g, 'nt')
    // snake_case, kebab-case, camelCase as one word each, so naming styles compare as a family.
    .replace(/\b(snake|kebab|camel|pascal)[_ -]case\b/g, '$1case');
  const words = wordRuns(lower);
  const terms = new Map<string, number>();
  const raw = new Set<string>();
  let negated = false;
  for (const word of words) {
    raw.add(word);
    if (NEGATIONS.has(word)) negated = true;
    if (STOP.has(word) || NEGATIONS.has(word)) continue;
    const term = canonical(word);
    if (term === '') continue;
    terms.set(term, (terms.get(term) ?? 0) + 1);
  }
  const digits: string[] = lower.match(/\b\d+(?:\.\d+)*(?=\b|st\b|nd\b|rd\b|th\b)/g) ?? [];
  const spelled = words.filter((word) => word in NUMBER_WORDS).map((word) => NUMBER_WORDS[word]!);
  const values = new Set([...digits, ...spelled]);
  const code = new Set([...lower.matchAll(/`([^`\n]{1,80})`/g)].map((match) => match[1]!.trim()));
  return { terms, negated, values, raw, code };
}

type Weight = (term: string) => number;
const UNIT_WEIGHT: Weight = () => 1;
/** Each profile's weighted norm, per weighting: a run compares a unit with many others. */
const norms = new WeakMap<Weight, WeakMap<TextProfile, number>>();

function normOf(profile: TextProfile, weight: Weight): number {
  let byProfile = norms.get(weight);
  if (!byProfile) {
    byProfile = new WeakMap();
    norms.set(weight, byProfile);
  }
  let norm = byProfile.get(profile);
  if (norm === undefined) {
    norm = 0;
    for (const [term, count] of profile.terms) norm += (weight(term) * count) ** 2;
    norm = Math.sqrt(norm);
    byProfile.set(profile, norm);
  }
  return norm;
}

/** Cosine of two bags, each term weighted by `weight` (an IDF; 1 when none is given). */
export function cosine(a: TextProfile, b: TextProfile, weight: Weight = UNIT_WEIGHT): number {
  const [small, large] = a.terms.size <= b.terms.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, count] of small.terms) {
    const other = large.terms.get(term);
    if (other !== undefined) dot += weight(term) ** 2 * count * other;
  }
  if (dot === 0) return 0;
  return dot / (normOf(a, weight) * normOf(b, weight));
}

function familyClash(a: TextProfile, b: TextProfile): string | undefined {
  for (const family of FAMILIES) {
    const inA = family.filter((member) => a.raw.has(member));
    const inB = family.filter((member) => b.raw.has(member));
    if (inA.length === 0 || inB.length === 0) continue;
    const onlyA = inA.filter((member) => !inB.includes(member));
    const onlyB = inB.filter((member) => !inA.includes(member));
    if (onlyA.length > 0 && onlyB.length > 0) return `${onlyA[0]} vs ${onlyB[0]}`;
  }
  return undefined;
}

function antonymClash(a: TextProfile, b: TextProfile): string | undefined {
  for (const [x, y] of ANTONYMS) {
    const ax = a.raw.has(x) || a.terms.has(x);
    const ay = a.raw.has(y) || a.terms.has(y);
    const bx = b.raw.has(x) || b.terms.has(x);
    const by = b.raw.has(y) || b.terms.has(y);
    if ((ax && !ay && by && !bx) || (ay && !ax && bx && !by)) return `${x} vs ${y}`;
  }
  return undefined;
}

function valueClash(a: TextProfile, b: TextProfile): string | undefined {
  if (a.values.size === 0 || b.values.size === 0) return undefined;
  const onlyA = [...a.values].filter((value) => !b.values.has(value));
  const onlyB = [...b.values].filter((value) => !a.values.has(value));
  return onlyA.length > 0 && onlyB.length > 0 ? `${onlyA[0]} vs ${onlyB[0]}` : undefined;
}

export type PairVerdict =
  | { kind: 'duplicate'; similarity: number; reason: string }
  | { kind: 'contradiction'; similarity: number; reason: string }
  | { kind: 'none'; similarity: number };

/** Thresholds, tuned on the labelled set's development part (bench/fixtures/maintenance). */
export const DUPLICATE_SIMILARITY = 0.62;
export const TOPIC_SIMILARITY = 0.38;
export const NEGATION_SIMILARITY = 0.5;

/** Whether two unit texts are near duplicates, contradict each other, or neither. */
export function judgePair(
  a: TextProfile,
  b: TextProfile,
  weight?: (term: string) => number,
): PairVerdict {
  const similarity = cosine(a, b, weight);
  if (similarity < TOPIC_SIMILARITY) return { kind: 'none', similarity };
  // Both name code, and none of the same: they are about different things.
  if (a.code.size > 0 && b.code.size > 0 && ![...a.code].some((name) => b.code.has(name))) {
    return { kind: 'none', similarity };
  }
  const clash =
    familyClash(a, b) ??
    antonymClash(a, b) ??
    valueClash(a, b) ??
    // A negation alone is weaker evidence than a differing value: it needs a closer subject.
    (a.negated !== b.negated && similarity >= NEGATION_SIMILARITY ? 'one says not' : undefined);
  if (clash) {
    return { kind: 'contradiction', similarity, reason: `same subject, ${clash}` };
  }
  if (similarity >= DUPLICATE_SIMILARITY) {
    return { kind: 'duplicate', similarity, reason: `similarity ${similarity.toFixed(2)}` };
  }
  return { kind: 'none', similarity };
}

/** IDF weights over a set of profiles (a workspace's units): rare words count more. */
export function idfWeights(profiles: readonly TextProfile[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const profile of profiles) {
    for (const term of profile.terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = profiles.length;
  const weights = new Map<string, number>();
  return (term) => {
    let w = weights.get(term);
    if (w === undefined) {
      w = Math.log(1 + (n + 1) / ((df.get(term) ?? 0) + 1));
      weights.set(term, w);
    }
    return w;
  };
}
