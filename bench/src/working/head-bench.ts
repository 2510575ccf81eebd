import { type Cairn, openCairn } from '@cairn/engine';
import type { TextGenerator } from '../scale/text-generator';
import { type Distribution, distribution, timed } from '../stats';

export interface HeadBenchOptions {
  /** Sessions driven through the lifecycle before anything is measured. */
  sessions: number;
  /** Topic threads the sessions are spread over (`topic-1` ... `topic-N`). */
  threads: number;
  /** Further sessions whose events are timed. */
  measured: number;
}

/** This clone's head (what the hooks inject), sized the way the head budget counts it. */
export interface HeadRegionFigures {
  chars: number;
  /** chars / 4, rounded up (the engine's `estimateTokens`). */
  tokens: number;
  budgetTokens: number;
  lines: number;
  /** Thread keys listed under "Active threads". */
  threadsListed: number;
}

export interface HeadFigures {
  agentId: string;
  sessions: number;
  threads: number;
  /** Wall time of driving the first `sessions` sessions (start, one prompt, end each). */
  buildMs: number;
  /** Timed events of the further sessions, on top of the lineage built before. */
  sessionEnd: Distribution;
  userPromptSubmit: Distribution;
  sessionStart: Distribution;
  head: HeadRegionFigures;
  /** Thread heads of the bench agent and the sessions they count (a check that every session landed). */
  threadHeads: number;
  sessionsInHeads: number;
  /** Events that answered with `failed` (fail-open), and the first such message. */
  failedEvents: number;
  firstFailure: string | undefined;
  pendingWrites: number;
}

const AGENT = 'bench';

/** Measures the managed region text (between the markers) against the budget. */
export function measureHeadRegion(region: string, budgetTokens: number): HeadRegionFigures {
  const lines = region === '' ? [] : region.split('\n');
  const threadsStart = lines.indexOf('### Active threads');
  let threadsListed = 0;
  if (threadsStart !== -1) {
    for (const line of lines.slice(threadsStart + 1)) {
      if (!line.startsWith('- `')) break;
      threadsListed += 1;
    }
  }
  return {
    chars: region.length,
    tokens: Math.ceil(region.length / 4),
    budgetTokens,
    lines: lines.length,
    threadsListed,
  };
}

/** A short clause of Zipf-distributed words, capitalized, with a full stop. */
function clause(text: TextGenerator, words: number): string {
  const body = Array.from({ length: words }, text.word).join(' ');
  return `${body.charAt(0).toUpperCase()}${body.slice(1)}.`;
}

/**
 * One user prompt: a line of status, then a decision and a next step,
 * sometimes a commitment or a blocker, phrased the way the extractive
 * summarizer files them, so thread heads and MEMORY.md fill up. Clauses are
 * short: the prompt is also the recall query, and the build should not be
 * dominated by searching long queries.
 */
export function sessionPrompt(text: TextGenerator): string {
  const short = () => clause(text, 3 + Math.floor(text.random() * 4));
  const parts = [short(), `Decision: ${short()}`, `Next step: ${short()}`];
  if (text.random() < 0.4) parts.push(`Commitment: ${short()}`);
  if (text.random() < 0.25) parts.push(`Blocked: ${short()}`);
  return parts.join(' ');
}

interface EventResult {
  failed?: { code: string; message: string };
}

/** One head bench: the engine, the prompt generator, and the events that failed open. */
interface HeadRun {
  cairn: Cairn;
  text: TextGenerator;
  options: HeadBenchOptions;
  log: (message: string) => void;
  failedEvents: number;
  firstFailure: string | undefined;
}

/** The timed events of the measured sessions, in milliseconds. */
interface EventTimes {
  starts: number[];
  prompts: number[];
  ends: number[];
}

function check(run: HeadRun, event: string, result: EventResult): void {
  if (!result.failed) return;
  run.failedEvents += 1;
  run.firstFailure ??= `${event}: ${result.failed.code} ${result.failed.message}`;
}

function session(run: HeadRun, i: number) {
  return {
    agentId: AGENT,
    sessionKey: `session-${i}`,
    threadKey: `topic-${(i % run.options.threads) + 1}`,
  };
}

/** The first `sessions` sessions (start, one prompt, end each), untimed one by one. */
async function buildLineage(run: HeadRun): Promise<void> {
  const { lifecycle } = run.cairn;
  for (let i = 0; i < run.options.sessions; i += 1) {
    const { agentId, sessionKey, threadKey } = session(run, i);
    check(run, 'session-start', await lifecycle.sessionStart({ agentId, sessionKey, threadKey }));
    const prompt = sessionPrompt(run.text);
    check(
      run,
      'user-prompt-submit',
      await lifecycle.userPromptSubmit({ agentId, sessionKey, prompt }),
    );
    check(run, 'session-end', await lifecycle.sessionEnd({ agentId, sessionKey }));
    if ((i + 1) % 250 === 0) run.log(`working: ${i + 1}/${run.options.sessions} sessions`);
  }
}

/** The further `measured` sessions, each event timed on its own. */
async function timeSessions(run: HeadRun): Promise<EventTimes> {
  const { lifecycle } = run.cairn;
  const times: EventTimes = { starts: [], prompts: [], ends: [] };
  const { sessions, measured } = run.options;
  for (let i = sessions; i < sessions + measured; i += 1) {
    const { agentId, sessionKey, threadKey } = session(run, i);
    const start = await timed(() => lifecycle.sessionStart({ agentId, sessionKey, threadKey }));
    check(run, 'session-start', start.value);
    times.starts.push(start.ms);
    const prompt = sessionPrompt(run.text);
    const submit = await timed(() => lifecycle.userPromptSubmit({ agentId, sessionKey, prompt }));
    check(run, 'user-prompt-submit', submit.value);
    times.prompts.push(submit.ms);
    const end = await timed(() => lifecycle.sessionEnd({ agentId, sessionKey }));
    check(run, 'session-end', end.value);
    times.ends.push(end.ms);
  }
  return times;
}

function headFigures(run: HeadRun, buildMs: number, times: EventTimes): HeadFigures {
  const { cairn } = run;
  // This clone's head: MEMORY.md's region is the team head (docs/TEAMS.md).
  const region = cairn.localHead() ?? '';
  const heads = cairn.threads(AGENT);
  const health = cairn.workingHealth();
  return {
    agentId: AGENT,
    sessions: run.options.sessions,
    threads: run.options.threads,
    buildMs,
    sessionEnd: distribution(times.ends),
    userPromptSubmit: distribution(times.prompts),
    sessionStart: distribution(times.starts),
    head: measureHeadRegion(region, cairn.settings.limits.headTokens),
    threadHeads: heads.length,
    sessionsInHeads: heads.reduce((sum, head) => sum + head.sessions, 0),
    failedEvents: run.failedEvents,
    firstFailure: run.firstFailure,
    pendingWrites: health.pending.length,
  };
}

/**
 * Drives sessions through the public lifecycle API of `openCairn`, spread
 * over topic threads, then times the events of a few more: each session end
 * writes a summary node, condenses the thread when due and re-renders the
 * thread head and this clone's head from the whole lineage (and MEMORY.md's
 * team region when its approved units changed).
 */
export async function benchHead(
  rootDir: string,
  homeDir: string,
  text: TextGenerator,
  options: HeadBenchOptions,
  log: (message: string) => void,
): Promise<HeadFigures> {
  const cairn: Cairn = await openCairn(rootDir, {
    env: {},
    homeDir,
    overrides: { timezone: 'UTC' },
  });
  const run: HeadRun = { cairn, text, options, log, failedEvents: 0, firstFailure: undefined };
  try {
    await cairn.init();
    const build = await timed(() => buildLineage(run));
    const times = await timeSessions(run);
    return headFigures(run, build.ms, times);
  } finally {
    cairn.closeWorking();
  }
}
