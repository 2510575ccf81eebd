import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The labelled project of the "Injection quality" section, read from one
 * dataset file (bench/fixtures/injection-quality/topics.tsv): each row is
 * one fact of a project, written together with what answers it and how a
 * developer asks for it: key, the unit, a document section (heading and
 * body; empty for a fact only memory holds), and two phrasings of a
 * request. Labels come from the rows, never from a ranker: a request
 * about a topic is answered by that topic's unit and section. The first
 * phrasing is the tuned part, the second is held out of any tuning.
 */

const FIXTURES = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/injection-quality/topics.tsv',
);

export interface Topic {
  key: string;
  unit: string;
  section?: { heading: string; body: string };
  asks: [string, string];
}

export type Part = 'tuned' | 'held-out';

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
];

export function loadTopics(file = FIXTURES): Topic[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [key, unit, heading, body, first, second] = line.split('\t');
      return {
        key: key!,
        unit: unit!,
        ...(heading ? { section: { heading, body: body ?? '' } } : {}),
        asks: [first!, second!],
      };
    });
}

/** Each topic asked both ways, then the requests nothing answers. */
export function labelledRequests(topics: readonly Topic[]): LabelledRequest[] {
  const asked = topics.flatMap((topic) =>
    topic.asks.map((text, index) => ({
      id: `${topic.key}#${index + 1}`,
      text,
      topics: [topic.key],
      part: (index === 0 ? 'tuned' : 'held-out') as Part,
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
