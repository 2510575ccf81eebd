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
  [
    'I rebased my feature work onto the wrong base and already force-pushed it. How do I get my old commits back using the reflog?',
    'paraphrased',
  ],
  [
    'pytest says "fixture \'tmp_path\' not found" in one of my test files, what am I missing?',
    'paraphrased',
  ],
  [
    'Write a bash one-liner that finds every log file over 100 MB under /var/log and gzips it in place.',
    'paraphrased',
  ],
  [
    'cargo build fails on a fresh Debian container with "linker `cc` not found" - which package do I need to install?',
    'paraphrased',
  ],
  [
    'how do i get the logs of the previous crashed container in a pod with kubectl, the current one has already restarted',
    'paraphrased',
  ],
  [
    'Is there any difference between LEFT JOIN and LEFT OUTER JOIN in SQL Server, or is it just syntax?',
    'paraphrased',
  ],
  [
    'Our Go service sits behind an AWS ALB with a 60 second idle timeout and we see sporadic 502s only on reused keep-alive connections. What should IdleTimeout on the net/http Server be set to relative to the ALB?',
    'paraphrased',
  ],
  [
    'Add a Makefile target that configures the C++ project with CMake in Release mode, builds it with all cores and then runs ctest.',
    'paraphrased',
  ],
  [
    'I have a CSV of sensor readings with one row every few seconds. Load it into pandas and resample it to hourly means, dropping hours with fewer than 10 samples.',
    'paraphrased',
  ],
  [
    'terraform plan wants to destroy and recreate our MySQL RDS instance just because I changed the parameter group name. how do I stop it from replacing the database?',
    'paraphrased',
  ],
  [
    'Why does my Java code throw ConcurrentModificationException when I remove keys from a HashMap inside a for-each loop, and what is the right way to do it?',
    'paraphrased',
  ],
  [
    'Explain the TCP three-way handshake and what SYN cookies are used for during a SYN flood.',
    'paraphrased',
  ],
  ["What's a good sourdough bread recipe at 70% hydration for a beginner?", 'paraphrased'],
  [
    'How do I configure vim so tabs display as 4 columns everywhere but real tab characters are kept in Makefiles?',
    'paraphrased',
  ],
  [
    'In Django, how do I make a model field optional in the admin form but still required in my DRF serializer?',
    'paraphrased',
  ],
  [
    'Write a regex that matches IPv6 addresses, including the compressed :: form and an embedded IPv4 suffix.',
    'paraphrased',
  ],
  [
    'how many liters of paint do i need for a 4 by 5 meter room with 2.5 m ceilings, two coats',
    'paraphrased',
  ],
  [
    'The Unity editor fails when I build for Android with IL2CPP and only says "Gradle build failed". Where does Unity write the full build log so I can see the real error?',
    'paraphrased',
  ],
  [
    'pip install fails with "certificate verify failed" behind our corporate proxy. How do I point pip at the company CA bundle permanently?',
    'paraphrased',
  ],
  [
    'Explain the difference between optimistic and pessimistic locking for database rows, and when I would pick each one.',
    'paraphrased',
  ],
  ['What does the volatile keyword actually guarantee in C compared to Java?', 'paraphrased'],
  [
    'Our Elasticsearch cluster went yellow after a node restart. How do I find which shards are unassigned and the reason for each?',
    'paraphrased',
  ],
  ['Summarize the plot of the Odyssey in five sentences.', 'paraphrased'],
  [
    'Fix the off-by-one bug in this binary search, it loops forever: while (lo < hi) { mid = (lo + hi) / 2; if (a[mid] < x) lo = mid; else hi = mid; }',
    'paraphrased',
  ],
  ['What are the tax implications of exercising ISO stock options early in the US?', 'paraphrased'],
  [
    'My Android app schedules a sync with WorkManager but it never runs while the phone is in Doze. Should I use an exact alarm instead, and which permission does that need on Android 14?',
    'paraphrased',
  ],
  [
    'make my docker image for a Go binary smaller, right now its 900MB on golang:1.22. multi-stage with scratch or distroless?',
    'paraphrased',
  ],
  [
    'In Excel, how do I look up a value from another sheet when the key column is not the first column of the table?',
    'paraphrased',
  ],
  ['How do I flush the DNS cache on macOS Sonoma?', 'paraphrased'],
  [
    'Our Kafka consumer group keeps rebalancing every few minutes and the consumer logs say max.poll.interval.ms was exceeded. Processing a batch can take a while. Which settings should I tune first?',
    'paraphrased',
  ],
  [
    'Write a SQL query that returns the second highest salary in each department, handling ties.',
    'paraphrased',
  ],
  [
    'How do I configure nginx to return a maintenance page with status 503 for everything except /healthz, which must keep returning 200?',
    'paraphrased',
  ],
  ["What's the best way to learn to juggle three balls?", 'paraphrased'],
  [
    'in react native the keyboard covers my text input on android, KeyboardAvoidingView does nothing. what am i missing',
    'paraphrased',
  ],
  [
    'git bisect stops with "some good revs are not ancestors of the bad rev" - what does that mean and how do I continue?',
    'paraphrased',
  ],
  [
    'My LaTeX document shows question marks instead of citation numbers even after I rebuild it several times. What step am I missing with biber?',
    'paraphrased',
  ],
  [
    'Set up a Raspberry Pi to read a DS18B20 sensor and log the temperature into an SQLite database every minute.',
    'paraphrased',
  ],
  [
    "What's the half-life of caffeine, and should I stop drinking coffee after 2 pm to sleep better?",
    'paraphrased',
  ],
  [
    'Translate "the invoice is now overdue, please settle it at your earliest convenience" into polite Japanese business language.',
    'paraphrased',
  ],
  [
    'The PHP-FPM pool keeps hitting pm.max_children under load. How do I calculate a sane value from the RAM on the box and the average worker size?',
    'paraphrased',
  ],
  [
    'How do I calculate compound interest on a savings account paying 3.5% a year, compounded monthly, over 10 years?',
    'paraphrased',
  ],
  [
    'Write a Python decorator that memoizes a function with an LRU cache of 128 entries where each entry also expires after a TTL.',
    'paraphrased',
  ],
  [
    "What's the difference between sessionStorage and localStorage in the browser, and is either one shared between tabs?",
    'paraphrased',
  ],
  [
    'In Kotlin coroutines, why does withTimeout not cancel a blocking JDBC call, and how should I wrap it so the timeout actually works?',
    'paraphrased',
  ],
  ['what is a good name for a golden retriever puppy', 'paraphrased'],
  [
    "Spring Boot fails at startup with \"Failed to configure a DataSource: 'url' attribute is not specified\". This service doesn't use a database at all, how do I turn that auto-configuration off?",
    'paraphrased',
  ],
  [
    'In Swift, how do I decode ISO 8601 dates with fractional seconds using JSONDecoder?',
    'paraphrased',
  ],
  [
    'The C# HttpClient in our .NET service throws TaskCanceledException after exactly 100 seconds when downloading large reports. Where is that limit set and how do I raise it for just this one call?',
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
