/**
 * A seeded year of use of one project: sessions of Claude Code, Codex and
 * OpenCode on the main branch, feature branches and topic threads, each
 * with prompts, tool calls and the units the agent files. Every session is
 * drawn from its own seeded stream, so any one of them can be rebuilt alone
 * (the lossless check and the replay need that) and the year is the same on
 * every machine.
 */
import type { MemoryCategory, ReviewState } from '@cairn/core';
import {
  createRandom,
  createTextGeneratorFrom,
  createVocabulary,
  zipfDraw,
} from '../scale/text-generator';
import { type ToolCall, type ToolText, toolCall } from './tool-output';

/** Bump when what the generator produces changes: the cached projects are rebuilt. */
export const GENERATOR_VERSION = 1;
export const LIVED_IN_SEED = 20_261_125;

/** The project folder name: with `.git/HEAD` on `main`, hooks default to the `lived-in.main` thread. */
export const PROJECT_NAME = 'lived-in';
export const MAIN_THREAD = `${PROJECT_NAME}.main`;

export interface LivedInSpec {
  sessions: number;
  /** The early snapshot is taken when this many sessions have ended. */
  snapshotAt: number;
  /** Rounds of one prompt, `toolsPerPrompt` tool calls and one unit. */
  promptsPerSession: number;
  toolsPerPrompt: number;
}

export const FULL_SPEC: LivedInSpec = {
  sessions: 2_000,
  snapshotAt: 100,
  promptsPerSession: 5,
  toolsPerPrompt: 4,
};
export const QUICK_SPEC: LivedInSpec = { ...FULL_SPEC, sessions: 60, snapshotAt: 20 };

export type PlannedEvent =
  | { kind: 'prompt'; at: number; prompt: string }
  | ({ kind: 'tool'; at: number; toolIndex: number } & ToolCall)
  | { kind: 'unit'; at: number; text: string; category: MemoryCategory; review: ReviewState };

export interface PlannedSession {
  index: number;
  agentId: string;
  sessionKey: string;
  threadKey: string;
  startAt: number;
  endAt: number;
  events: PlannedEvent[];
  /** Transcript-only words this session's prompts and tool outputs contain. */
  rareWords: string[];
}

/** The shared part of every session: vocabularies and the calendar. */
export interface LivedInWorld {
  seed: number;
  spec: LivedInSpec;
  vocabulary: readonly string[];
  /** Words that occur in prompts and tool outputs but never in a unit. */
  transcriptVocabulary: readonly string[];
  yearStart: number;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
const AGENTS: [string, number][] = [
  ['claude-code', 0.55],
  ['codex', 0.3],
  ['opencode', 0.15],
];
const BRANCHES = ['search-cache', 'oauth-login', 'billing-v2', 'perf-index', 'mobile-sync'];
const TOPICS = ['topic-release-planning', 'topic-oncall'];
const CATEGORIES: [MemoryCategory, number][] = [
  ['fact', 0.35],
  ['decision', 0.25],
  ['preference', 0.15],
  ['entity', 0.15],
  ['other', 0.1],
];
const REVIEWS: [ReviewState, number][] = [
  ['approved', 0.7],
  ['draft', 0.26],
  ['deprecated', 0.04],
];
const UNIT_OPENERS: Record<MemoryCategory, string[]> = {
  decision: ['We decided', 'The team agreed', 'Going forward'],
  preference: ['I prefer', 'Always', 'Never'],
  fact: ['Note:', 'Remember that', 'The'],
  entity: ['The service', 'The owner of', 'The module'],
  other: ['Fixed', 'Checked', 'Looked at'],
};

function weighted<T>(random: () => number, items: [T, number][]): T {
  let r = random();
  for (const [item, weight] of items) {
    r -= weight;
    if (r < 0) return item;
  }
  return items[items.length - 1]![0];
}

/** Made-up words from letters the project vocabulary never puts together (`zx`, `kv`, ...). */
function transcriptWords(random: () => number, size: number, avoid: ReadonlySet<string>) {
  const onsets = ['zx', 'kv', 'qy', 'vx', 'jh', 'xw'];
  const vowels = ['a', 'o', 'y', 'e', 'u'];
  const words = new Set<string>();
  while (words.size < size) {
    let word = '';
    for (let i = 0; i < 2; i += 1)
      word +=
        onsets[Math.floor(random() * onsets.length)]! +
        vowels[Math.floor(random() * vowels.length)]!;
    word += ['', 'n', 'rk', 'l', 'th'][Math.floor(random() * 5)]!;
    if (!avoid.has(word)) words.add(word);
  }
  return [...words];
}

export function createWorld(seed: number, spec: LivedInSpec): LivedInWorld {
  const random = createRandom(seed);
  const vocabulary = createVocabulary(random, 3000);
  return {
    seed,
    spec,
    vocabulary,
    transcriptVocabulary: transcriptWords(random, 400, new Set(vocabulary)),
    yearStart: Date.UTC(2025, 0, 6, 8, 0, 0),
  };
}

/** The thread a session runs in: feature branches live for a stretch of the year each. */
function threadFor(random: () => number, dayOfYear: number): string {
  const r = random();
  if (r < 0.45) return MAIN_THREAD;
  if (r < 0.85) {
    const live = Math.floor(dayOfYear / 73) % BRANCHES.length;
    const branch = BRANCHES[random() < 0.8 ? live : (live + 1) % BRANCHES.length]!;
    return `${PROJECT_NAME}.feat-${branch}`;
  }
  return TOPICS[Math.floor(random() * TOPICS.length)]!;
}

function unitText(text: ToolText['text'], category: MemoryCategory): string {
  const opener = UNIT_OPENERS[category][Math.floor(text.random() * 3)]!;
  const body = Array.from({ length: 8 + Math.floor(text.random() * 10) }, text.word).join(' ');
  const extra = text.random() < 0.4 ? ` ${text.sentence()}` : '';
  return `${opener} ${body}.${extra}`;
}

function promptText(t: ToolText): string {
  const words = Array.from({ length: 4 + Math.floor(t.text.random() * 10) }, t.text.word);
  if (t.text.random() < 0.3) words.splice(Math.floor(t.text.random() * words.length), 0, t.rare());
  const verb = ['Fix', 'Explain', 'Refactor', 'Add a test for', 'Why does', 'Look at'][
    Math.floor(t.text.random() * 6)
  ]!;
  return `${verb} ${words.join(' ')}?`;
}

/**
 * Session `index` of the year (indices past `spec.sessions` continue the
 * calendar: the replay bench uses them). `timeOrigin` moves the calendar.
 */
export function planSession(
  world: LivedInWorld,
  index: number,
  timeOrigin?: number,
): PlannedSession {
  const random = createRandom((world.seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const text = createTextGeneratorFrom(random, world.vocabulary);
  const rareDraw = zipfDraw(random, world.transcriptVocabulary);
  const rareWords = new Set<string>();
  const t: ToolText = {
    text,
    rare: () => {
      const word = rareDraw();
      rareWords.add(word);
      return word;
    },
  };
  const slot = YEAR_MS / world.spec.sessions;
  const startAt = Math.round(
    (timeOrigin ?? world.yearStart + index * slot) + random() * Math.min(slot * 0.2, 3_600_000),
  );
  const dayOfYear = Math.floor((startAt - world.yearStart) / 86_400_000);
  const agentId = weighted(random, AGENTS);
  const threadKey = threadFor(random, dayOfYear);
  let at = startAt;
  const tick = () => (at += 15_000 + Math.floor(random() * 60_000));
  const events: PlannedEvent[] = [];
  let toolIndex = 0;
  for (let p = 0; p < world.spec.promptsPerSession; p += 1) {
    events.push({ kind: 'prompt', at: tick(), prompt: promptText(t) });
    for (let k = 0; k < world.spec.toolsPerPrompt; k += 1) {
      events.push({ kind: 'tool', at: tick(), toolIndex: toolIndex++, ...toolCall(t) });
    }
    const category = weighted(random, CATEGORIES);
    const review = weighted(random, REVIEWS);
    events.push({ kind: 'unit', at: tick(), text: unitText(text, category), category, review });
  }
  return {
    index,
    agentId,
    sessionKey: `year-${String(index).padStart(5, '0')}`,
    threadKey,
    startAt,
    endAt: tick(),
    events,
    rareWords: wordsPresent(rareWords, events),
  };
}

/** The drawn words that survived into the text (an output cut to its size can drop one). */
function wordsPresent(drawn: ReadonlySet<string>, events: readonly PlannedEvent[]): string[] {
  const tokens = new Set<string>();
  for (const event of events) {
    const text =
      event.kind === 'prompt'
        ? event.prompt
        : event.kind === 'tool'
          ? `${JSON.stringify(event.input)}\n${event.output}`
          : '';
    for (const token of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) tokens.add(token);
  }
  return [...drawn].filter((word) => tokens.has(word)).sort();
}

/** UTF-8 bytes a session hands Cairn: prompts, tool inputs and outputs as delivered, unit texts. */
export function capturedBytes(session: PlannedSession) {
  const bytes = { prompts: 0, toolInputs: 0, toolOutputs: 0, units: 0 };
  for (const event of session.events) {
    if (event.kind === 'prompt') bytes.prompts += Buffer.byteLength(event.prompt);
    else if (event.kind === 'unit') bytes.units += Buffer.byteLength(event.text);
    else {
      bytes.toolInputs += Buffer.byteLength(JSON.stringify(event.input));
      bytes.toolOutputs += Buffer.byteLength(event.output);
    }
  }
  return bytes;
}
