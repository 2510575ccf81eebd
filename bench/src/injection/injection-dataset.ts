import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The labelled project of the "Injection quality" section, read from one
 * dataset file (bench/fixtures/injection-quality/topics.tsv): each row is
 * one fact of a project, written together with what answers it and how a
 * developer asks for it: key, the unit, a document section (heading and
 * body; empty for a fact only memory holds), and three phrasings of a
 * request. Labels come from the rows, never from a ranker: a request
 * about a topic is answered by that topic's unit and section. The first
 * phrasing is the tuned part, the second is held out of any tuning; the
 * third (`paraphrased`) was written later by someone who never saw the
 * ranker, as a developer who knows the symptom and not the project's
 * words would ask, and may be tuned on.
 */

const FIXTURES = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/injection-quality/topics.tsv',
);

export interface Topic {
  key: string;
  unit: string;
  section?: { heading: string; body: string };
  asks: [string, string, string];
}

export type Part = 'tuned' | 'held-out' | 'paraphrased';

/** The part each phrasing of a topic belongs to, in column order. */
const ASK_PARTS: readonly Part[] = ['tuned', 'held-out', 'paraphrased'];

export interface LabelledRequest {
  id: string;
  text: string;
  /** Topic keys whose unit and section answer it; empty when nothing does. */
  topics: string[];
  part: Part;
}

/** Requests no topic answers: about things this project never wrote down. */
export const UNANSWERED: readonly [string, Part][] = [
  ['how is the weather in Lisbon today?', 'tuned'],
  ['what is the capital of Mongolia?', 'tuned'],
  ['write a haiku about autumn leaves', 'tuned'],
  ['how do I center a div with flexbox?', 'tuned'],
  ['what does the kubernetes operator pattern mean?', 'tuned'],
  ['explain quantum entanglement simply', 'tuned'],
  ['recommend a good espresso grinder', 'tuned'],
  ['what is the difference between tcp and udp?', 'tuned'],
  ['translate good morning into japanese', 'held-out'],
  ['how many moons does jupiter have?', 'held-out'],
  ['what year did the berlin wall fall?', 'held-out'],
  ['give me a recipe for banana bread', 'held-out'],
  ['how does photosynthesis work?', 'held-out'],
  ['which chess opening is best for beginners?', 'held-out'],
  ['what is a good name for a cat?', 'held-out'],
  ['summarize the plot of hamlet', 'held-out'],
  ['how do I reverse a linked list in rust?', 'paraphrased'],
  ['whats the difference between let and const in javascript', 'paraphrased'],
  [
    'my docker build fails with "no space left on device" \u2014 how do I clean up old images and layers?',
    'paraphrased',
  ],
  ['write me a regex that matches ipv4 addresses', 'paraphrased'],
  [
    'Can you explain why quicksort is O(n^2) in the worst case and how picking a random pivot helps?',
    'paraphrased',
  ],
  ['git: how do i undo the last commit but keep the changes', 'paraphrased'],
  ['vim search and replace across the whole file?', 'paraphrased'],
  [
    "What's a clean way to memoize a recursive fibonacci function in python without a global dict?",
    'paraphrased',
  ],
];

export function loadTopics(file = FIXTURES): Topic[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [key, unit, heading, body, first, second, third] = line.split('\t');
      return {
        key: key!,
        unit: unit!,
        ...(heading ? { section: { heading, body: body ?? '' } } : {}),
        asks: [first!, second!, third!],
      };
    });
}

/** Each topic asked each way, then the requests nothing answers. */
export function labelledRequests(topics: readonly Topic[]): LabelledRequest[] {
  const asked = topics.flatMap((topic) =>
    topic.asks.map((text, index) => ({
      id: `${topic.key}#${index + 1}`,
      text,
      topics: [topic.key],
      part: ASK_PARTS[index]!,
    })),
  );
  const unanswered = UNANSWERED.map(([text, part], index) => ({
    id: `none#${index + 1}`,
    text,
    topics: [],
    part,
  }));
  return [...asked, ...unanswered];
}

/** The project's documents: the first half of the sections in README.md, the rest in docs/guide.md. */
export function documentFiles(topics: readonly Topic[]): { path: string; text: string }[] {
  const sections = topics.filter((topic) => topic.section);
  const half = Math.ceil(sections.length / 2);
  const render = (title: string, part: readonly Topic[]) =>
    `# ${title}\n\n${part.map((t) => `## ${t.section!.heading}\n\n${t.section!.body}\n`).join('\n')}`;
  return [
    { path: 'README.md', text: render('Ky shop', sections.slice(0, half)) },
    { path: 'docs/guide.md', text: render('Guide', sections.slice(half)) },
  ];
}
