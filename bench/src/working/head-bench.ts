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
  let failedEvents = 0;
  let firstFailure: string | undefined;
  const check = (event: string, result: EventResult) => {
    if (!result.failed) return;
    failedEvents += 1;
    firstFailure ??= `${event}: ${result.failed.code} ${result.failed.message}`;
  };
  const session = (i: number) => ({
    agentId: AGENT,
    sessionKey: `session-${i}`,
    threadKey: `topic-${(i % options.threads) + 1}`,
  });
  try {
    await cairn.init();
    const build = await timed(async () => {
      for (let i = 0; i < options.sessions; i += 1) {
        const { agentId, sessionKey, threadKey } = session(i);
        check(
          'session-start',
          await cairn.lifecycle.sessionStart({ agentId, sessionKey, threadKey }),
        );
        const prompt = sessionPrompt(text);
        check(
          'user-prompt-submit',
          await cairn.lifecycle.userPromptSubmit({ agentId, sessionKey, prompt }),
        );
        check('session-end', await cairn.lifecycle.sessionEnd({ agentId, sessionKey }));
        if ((i + 1) % 250 === 0) log(`working: ${i + 1}/${options.sessions} sessions`);
      }
    });
    const starts: number[] = [];
    const prompts: number[] = [];
    const ends: number[] = [];
    for (let i = options.sessions; i < options.sessions + options.measured; i += 1) {
      const { agentId, sessionKey, threadKey } = session(i);
      const start = await timed(() =>
        cairn.lifecycle.sessionStart({ agentId, sessionKey, threadKey }),
      );
      check('session-start', start.value);
      starts.push(start.ms);
      const prompt = sessionPrompt(text);
      const submit = await timed(() =>
        cairn.lifecycle.userPromptSubmit({ agentId, sessionKey, prompt }),
      );
      check('user-prompt-submit', submit.value);
      prompts.push(submit.ms);
      const end = await timed(() => cairn.lifecycle.sessionEnd({ agentId, sessionKey }));
      check('session-end', end.value);
      ends.push(end.ms);
    }
    // This clone's head: MEMORY.md's region is the team head (docs/TEAMS.md).
    const region = cairn.localHead() ?? '';
    const heads = cairn.threads(AGENT);
    const health = cairn.workingHealth();
    return {
      agentId: AGENT,
      sessions: options.sessions,
      threads: options.threads,
      buildMs: build.ms,
      sessionEnd: distribution(ends),
      userPromptSubmit: distribution(prompts),
      sessionStart: distribution(starts),
      head: measureHeadRegion(region, cairn.settings.limits.headTokens),
      threadHeads: heads.length,
      sessionsInHeads: heads.reduce((sum, head) => sum + head.sessions, 0),
      failedEvents,
      firstFailure,
      pendingWrites: health.pending.length,
    };
  } finally {
    cairn.closeWorking();
  }
}
