import { seededRandom } from '@cairn/testkit/seeded-random';

/**
 * Seeded synthetic text for the scale bench: a vocabulary of a few thousand
 * words drawn with a Zipf law, so common words repeat like real notes and the
 * long tail gives queries selective terms. Same seed, same workspace.
 */

/** The testkit's seeded generator (mulberry32), from the entry that does not load vitest. */
export const createRandom = seededRandom;

/** Frequent real words first: they take the head of the Zipf curve. */
const COMMON_WORDS = `project team release deploy build test database schema migration index query
cache server client request response error timeout retry config setting option flag feature bug fix
issue review merge branch commit version package module service api endpoint token session user
account customer invoice payment report metric latency memory disk network cluster node worker queue
job task schedule cron backup restore log trace alert incident outage rollback staging production
preview docs guide note meeting decision plan goal risk owner deadline budget estimate design
prototype feedback survey interview roadmap milestone sprint backlog ticket priority label template
theme layout button form field table column row chart dashboard export import upload download file
folder path link image video audio font color icon menu modal search filter sort page limit offset
cursor batch stream event message channel webhook hook plugin adapter driver backend frontend mobile
desktop browser terminal shell script command argument default value type interface contract model
vector embedding score rank recall snippet chunk summary thread reply mention invite permission role
admin guest policy audit compliance license vendor contract renewal office travel lunch coffee
weekend holiday birthday garden kitchen bicycle train flight hotel museum concert library lecture`
  .split(/\s+/)
  .filter(Boolean);

const ONSETS = ['b', 'br', 'c', 'ch', 'd', 'dr', 'f', 'g', 'gr', 'h', 'j', 'k', 'l', 'm', 'n', 'p'];
const MORE_ONSETS = ['pl', 'qu', 'r', 's', 'sh', 'st', 't', 'tr', 'v', 'w', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 'nd', 'rk', 'st', 'x', 'm', 't'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Pronounceable made-up words (names of services, people, places in the notes). */
function inventWord(random: () => number): string {
  const onsets = [...ONSETS, ...MORE_ONSETS];
  const syllables = 2 + Math.floor(random() * 2);
  let word = '';
  for (let i = 0; i < syllables; i += 1) word += pick(random, onsets) + pick(random, VOWELS);
  return word + pick(random, CODAS);
}

export function createVocabulary(random: () => number, size: number): string[] {
  const words = new Set(COMMON_WORDS);
  while (words.size < size) words.add(inventWord(random));
  return [...words].slice(0, size);
}

const GLUE = ['the', 'a', 'to', 'for', 'with', 'on', 'and', 'in', 'of', 'after', 'before', 'from'];
const OPENERS = ['We decided', 'Remember that', 'Note:', 'The team agreed', 'I prefer', 'Fixed'];

export interface TextGenerator {
  readonly vocabulary: readonly string[];
  /** The seeded uniform source the words come from, for ids and choices. */
  random(): number;
  /** One Zipf-distributed vocabulary word. */
  word(): string;
  sentence(): string;
  paragraph(): string;
  heading(): string;
  /** 1-4 words: half from the Zipf head, half uniform over the vocabulary (selective). */
  query(): string;
}

export function createTextGenerator(seed: number, vocabularySize = 3000): TextGenerator {
  const random = createRandom(seed);
  return createTextGeneratorFrom(random, createVocabulary(random, vocabularySize));
}

/** A Zipf draw over a word list: rank r has weight 1 / r^exponent. */
export function zipfDraw(
  random: () => number,
  words: readonly string[],
  exponent = 1,
): () => string {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank += 1) {
    total += 1 / rank ** exponent;
    cumulative.push(total);
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return words[low]!;
  };
}

/**
 * A generator over a given vocabulary and uniform source: many independent
 * streams (one per simulated session) can share one vocabulary.
 */
export function createTextGeneratorFrom(
  random: () => number,
  vocabulary: readonly string[],
): TextGenerator {
  const word = zipfDraw(random, vocabulary, 0.9);
  const sentence = () => {
    const length = 6 + Math.floor(random() * 12);
    const parts: string[] = random() < 0.3 ? [pick(random, OPENERS)] : [];
    for (let i = 0; i < length; i += 1) {
      if (i > 0 && random() < 0.3) parts.push(pick(random, GLUE));
      parts.push(word());
    }
    const text = parts.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 2 + Math.floor(random() * 4) }, sentence).join(' ');
  const heading = () => Array.from({ length: 2 + Math.floor(random() * 3) }, word).join(' ');
  const query = () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
      random() < 0.5 ? word() : pick(random, vocabulary),
    ).join(' ');
  return { vocabulary, random, word, sentence, paragraph, heading, query };
}
