import type { TranscriptEntry } from '../lineage';
import { clip } from '../summaries';
import { commandFamily, toolFamily } from './command-family';
import { failureSignature } from './failure-signature';
import { type Gotcha, NO_FINAL_ANSWER, type RunDigest, type RunOutcome } from './run-digest-types';
import { displayPath, editedFiles, transcriptToolEvents } from './transcript-tool-events';

/** What the session-end step read, for one run. */
export interface RunDigestInput {
  agentId: string;
  runId: string;
  threadKey: string;
  harness?: string;
  cwd?: string;
  /** The memory namespace the run was recorded in. */
  namespace?: string;
  transcriptId?: number;
  entries: readonly TranscriptEntry[];
  /** Entries in the whole transcript (default: entries.length). */
  entryCount?: number;
  /** When the session started, if its transcript is empty. */
  startedAt: string;
  endedAt: string;
  /** Decisions and next steps, from the session's summary (extractive or model). */
  narrative: { decisions: string[]; nextSteps: string[]; source: string; nodeId?: string };
  git?: { commits: RunDigest['changes']['commits']; diffstat?: RunDigest['changes']['diffstat'] };
  gitNote?: string;
}

const INTENT_CHARS = 300;
/** Gotchas kept per digest, first met first. */
const MAX_GOTCHAS = 12;
const MAX_EDITED = 50;

/** Words of an agent's last turn that say how the work ended. */
const GAVE_UP =
  /\b(?:could ?n[o']t|cannot|can't|unable to|still fail(?:s|ing)?|gave up|giving up|blocked|did not work|didn't work)\b/i;
const FINISHED =
  /\b(?:done|completed?|fixed|all (?:\w+ )?(?:tests? )?pass(?:es|ed|ing)?|succeeded|works now|implemented|is ready)\b/i;

function intentOf(entries: readonly TranscriptEntry[]): string {
  const prompts = entries.filter((entry) => entry.role === 'user');
  if (prompts.length === 0) return '(no prompt recorded)';
  const first = clip(prompts[0]!.text, INTENT_CHARS);
  return prompts.length > 1 ? `${first} (+${prompts.length - 1} more prompts)` : first;
}

const familyOf = (tool: string, command: string | undefined) =>
  commandFamily(command) ?? toolFamily(tool) ?? tool;

/** Errors met, by signature, and how each ended: resolved by a later success of its family, or not. */
export function collectGotchas(events: ReturnType<typeof transcriptToolEvents>): {
  gotchas: Gotcha[];
  lastFailed: Gotcha | undefined;
} {
  const bySignature = new Map<string, Gotcha & { familyKey: string }>();
  let lastFailed: Gotcha | undefined;
  for (const { id, event } of events) {
    const key = familyOf(event.tool, event.command);
    const failure = failureSignature(event);
    if (!failure) {
      lastFailed = undefined;
      for (const open of bySignature.values()) {
        if (open.status === 'unresolved' && open.familyKey === key) {
          open.status = 'resolved';
          open.resolvedBy = id;
        }
      }
      continue;
    }
    const known = bySignature.get(failure.signature);
    if (known) {
      known.count += 1;
      known.status = 'unresolved';
      delete known.resolvedBy;
      lastFailed = known;
      continue;
    }
    if (bySignature.size >= MAX_GOTCHAS) continue;
    const gotcha = {
      signature: failure.signature,
      family: failure.family,
      normalized: failure.normalized,
      ...(event.command ? { command: clip(event.command, 200) } : {}),
      eventId: id,
      count: 1,
      status: 'unresolved' as const,
      familyKey: key,
    };
    bySignature.set(failure.signature, gotcha);
    lastFailed = gotcha;
  }
  const gotchas = [...bySignature.values()].map(({ familyKey: _, ...gotcha }) => gotcha);
  return { gotchas, lastFailed };
}

/** The last assistant turn after the last tool event, where the harness recorded one. */
function lastWord(entries: readonly TranscriptEntry[]): string | undefined {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index]!;
    if (entry.role === 'assistant') return entry.text;
    if (entry.role === 'tool') return undefined;
  }
  return undefined;
}

/** Whether, after the last prompt, the harness said the agent did not answer (captureFinalAnswer). */
function saidNoAnswer(entries: readonly TranscriptEntry[]): boolean {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index]!;
    if (entry.role === 'system' && entry.text === NO_FINAL_ANSWER) return true;
    if (entry.role !== 'system') return false;
  }
  return false;
}

/**
 * A run that ended on a prompt with no answer after it: abandoned when
 * the harness read its transcript and said so, else unknown (the harness
 * did not hand the answer over, so an answer in text cannot be told from none).
 */
function unansweredOutcome(entries: readonly TranscriptEntry[]): {
  outcome: RunOutcome;
  reason: string;
} {
  const ranTools = entries.some((entry) => entry.role === 'tool');
  const answered = entries.some((entry) => entry.role === 'assistant');
  if (saidNoAnswer(entries))
    return {
      outcome: 'abandoned',
      reason:
        ranTools || answered
          ? 'the session ended on a prompt nothing answered'
          : 'no tool ran and the agent did not answer',
    };
  return {
    outcome: 'unknown',
    reason: ranTools
      ? "the session ended on a prompt, and the harness did not hand over the agent's answer"
      : "no tool ran, and the harness did not hand over the agent's answer",
  };
}

function outcomeOf(
  entries: readonly TranscriptEntry[],
  tools: number,
  gotchas: readonly Gotcha[],
  lastFailed: Gotcha | undefined,
): { outcome: RunOutcome; reason: string } {
  const last = [...entries].reverse().find((entry) => entry.role !== 'system');
  if (!last) return { outcome: 'abandoned', reason: 'no prompt, no tool call and no answer' };
  if (last.role === 'user') return unansweredOutcome(entries);
  const word = lastWord(entries);
  if (word && GAVE_UP.test(word)) return { outcome: 'failed', reason: "the agent's last turn" };
  if (word && FINISHED.test(word)) return { outcome: 'succeeded', reason: "the agent's last turn" };
  if (lastFailed)
    return { outcome: 'failed', reason: `the last tool call failed (${lastFailed.family})` };
  const open = gotchas.filter((gotcha) => gotcha.status === 'unresolved').length;
  if (open > 0) return { outcome: 'failed', reason: `${open} error(s) still failing` };
  return {
    outcome: 'succeeded',
    reason: tools > 0 ? 'the last tool calls succeeded' : 'the agent answered; no tool ran',
  };
}

/** Builds a run's digest from what was read; pure. */
export function buildRunDigest(input: RunDigestInput): RunDigest {
  const transcriptId = input.transcriptId ?? 0;
  const events = transcriptToolEvents(transcriptId, input.entries);
  const { gotchas, lastFailed } = collectGotchas(events);
  const { outcome, reason } = outcomeOf(input.entries, events.length, gotchas, lastFailed);
  const edits = events.filter((event) => editedFiles(event).length > 0);
  const edited = [
    ...new Set(edits.flatMap((event) => editedFiles(event).map((f) => displayPath(f, input.cwd)))),
  ].slice(0, MAX_EDITED);
  const commits = input.git?.commits ?? [];
  const evidenceEvents = [
    ...new Set([
      ...gotchas.flatMap((g) => [g.eventId, ...(g.resolvedBy ? [g.resolvedBy] : [])]),
      ...edits.map((event) => event.id),
    ]),
  ];
  return {
    version: 1,
    runId: input.runId,
    agentId: input.agentId,
    threadKey: input.threadKey,
    ...(input.harness ? { harness: input.harness } : {}),
    ...(input.cwd ? { repo: input.cwd } : {}),
    ...(input.namespace ? { namespace: input.namespace } : {}),
    startedAt: input.entries[0]?.at ?? input.startedAt,
    endedAt: input.endedAt,
    intent: intentOf(input.entries),
    outcome,
    outcomeReason: reason,
    changes: {
      commits,
      ...(input.git?.diffstat ? { diffstat: input.git.diffstat } : {}),
      editedFiles: edited,
      ...(input.gitNote ? { gitNote: input.gitNote } : {}),
    },
    decisions: input.narrative.decisions,
    gotchas,
    nextSteps: input.narrative.nextSteps,
    narrativeSource: input.narrative.source,
    evidence: {
      sessionKey: input.runId,
      ...(input.transcriptId !== undefined ? { transcriptId: input.transcriptId } : {}),
      entries: input.entryCount ?? input.entries.length,
      ...(input.narrative.nodeId ? { summaryNodeId: input.narrative.nodeId } : {}),
      commits: commits.map((commit) => commit.sha),
      toolEventIds: evidenceEvents,
    },
  };
}
