import { escapeMarkers, redactSecrets } from '@cairn/core';
import { withoutListLabel } from '../summaries';

/** Tier 2: the rolling head of one thread (seed 002: status, decisions, open loops, next action, lineage). */
export interface ThreadHeadState {
  agentId: string;
  threadKey: string;
  status: string;
  decisions: string[];
  openLoops: string[];
  nextAction: string;
  /** Newest first: temporal node ids this head was distilled from. */
  lineage: string[];
  /** Sessions that contributed, for display. */
  sessions: number;
  updatedAt: string;
}

/** The structured output of a summary, as the head needs it. */
export interface SummaryFacts {
  status?: string;
  decisions: string[];
  commitments: string[];
  blockers: string[];
  nextSteps: string[];
}

export const THREAD_LIMITS = { decisions: 12, openLoops: 10, lineage: 12, itemChars: 240 } as const;

function bounded(items: string[], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const text = item.replace(/\s+/g, ' ').trim().slice(0, THREAD_LIMITS.itemChars);
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
    if (out.length >= max) break;
  }
  return out;
}

export function emptyThreadState(agentId: string, threadKey: string, now: string): ThreadHeadState {
  return {
    agentId,
    threadKey,
    status: '',
    decisions: [],
    openLoops: [],
    nextAction: '',
    lineage: [],
    sessions: 0,
    updatedAt: now,
  };
}

const clean = (text: string) => redactSecrets(text).text;

/**
 * Folds one new summary into the thread head: newest facts first, older
 * ones kept while they fit; open loops are the latest blockers and
 * commitments; every head points at the nodes it came from. Facts are
 * redacted as they enter: the thread head is written to
 * `.cairn/memory/threads/` and MEMORY.md, files a repository commits.
 */
export function foldSummary(
  previous: ThreadHeadState,
  raw: SummaryFacts,
  nodeId: string,
  now: string,
  countsAsSession: boolean,
): ThreadHeadState {
  // A summarizer's items may keep the label their list renders (`Decision: …`): taken off here.
  const facts = {
    status: raw.status === undefined ? undefined : clean(withoutListLabel('status', raw.status)),
    decisions: raw.decisions.map((item) => clean(withoutListLabel('decisions', item))),
    blockers: raw.blockers.map(clean),
    commitments: raw.commitments.map((item) => clean(withoutListLabel('commitments', item))),
    nextSteps: raw.nextSteps.map((item) => clean(withoutListLabel('nextSteps', item))),
  };
  return {
    ...previous,
    status: facts.status?.trim() || previous.status,
    decisions: bounded([...facts.decisions, ...previous.decisions], THREAD_LIMITS.decisions),
    openLoops: bounded(
      [...facts.blockers, ...facts.commitments, ...previous.openLoops],
      THREAD_LIMITS.openLoops,
    ),
    nextAction: facts.nextSteps[0]?.trim() || previous.nextAction,
    lineage: bounded([nodeId, ...previous.lineage], THREAD_LIMITS.lineage),
    sessions: previous.sessions + (countsAsSession ? 1 : 0),
    updatedAt: now,
  };
}

const list = (title: string, items: string[]) =>
  items.length ? [`## ${title}`, '', ...items.map((item) => `- ${escapeMarkers(item)}`), ''] : [];

/**
 * The markdown view written to `.cairn/memory/threads/<agent>.<thread>.md`.
 * Every fact is distilled from what the agent said, so Cairn markers in
 * them are escaped: only the markers Cairn writes itself stay markers.
 */
export function renderThreadHead(state: ThreadHeadState): string {
  return [
    `# Thread ${state.threadKey}`,
    '',
    `<!-- cairn:thread agent=${encodeURIComponent(state.agentId)} updated_at=${state.updatedAt} -->`,
    '',
    `**Status:** ${escapeMarkers(withoutListLabel('status', state.status)) || '(no summary yet)'}`,
    '',
    `**Next action:** ${escapeMarkers(withoutListLabel('nextSteps', state.nextAction)) || '(none recorded)'}`,
    '',
    ...list(
      'Decisions',
      state.decisions.map((item) => withoutListLabel('decisions', item)),
    ),
    ...list('Open loops', state.openLoops),
    ...list(
      'Lineage',
      state.lineage.map((id) => `\`${id}\` (expand with memory_expand)`),
    ),
  ].join('\n');
}
