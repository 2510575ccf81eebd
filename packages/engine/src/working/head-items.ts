import { withoutListLabel } from '../summaries';
import { TEAM_HEAD_FOOTER } from './team-head';
import type { ThreadHeadState } from './thread-state';

/**
 * The memory head and the thread head are derived items of the history
 * plane, pinned: they go in first and are paid from the top of the budget,
 * each within its share of it; the planes share what they leave.
 */
export const HEAD_SHARES = { memory: 0.4, thread: 0.2 } as const;

export const MEMORY_HEAD_ID = 'head:memory';
export const threadHeadId = (threadKey: string) => `head:thread:${threadKey}`;

/** The head region as item text: its `### Section` titles as `Section:` lines, without the footer. */
export function memoryHeadText(region: string): string {
  return region
    .split('\n')
    .filter((line) => !line.startsWith('_Cairn head, rendered') && line !== TEAM_HEAD_FOOTER)
    .map((line) => line.replace(/^#{1,6}\s+(.*)$/, '$1:'))
    .join('\n')
    .trim();
}

const list = (title: string, items: readonly string[]) =>
  items.length ? [`${title}:`, ...items.map((item) => `- ${item}`)] : [];

/**
 * A thread's head as item text: status, next action, decisions, open
 * loops, lineage. An item stored with its list's own label (a head folded
 * before labels were taken off) is shown without it: no `Next action: Next: …`,
 * no `Status: Next: …`.
 */
export function threadHeadText(state: ThreadHeadState): string {
  const next = withoutListLabel('nextSteps', state.nextAction);
  return [
    `Status: ${withoutListLabel('status', state.status) || '(no summary yet)'}`,
    `Next action: ${next || '(none recorded)'}`,
    ...list(
      'Decisions',
      state.decisions.map((item) => withoutListLabel('decisions', item)),
    ),
    ...list('Open loops', state.openLoops),
    ...list(
      'Lineage (expand with memory_expand)',
      state.lineage.map((id) => `\`${id}\``),
    ),
  ].join('\n');
}

export const MEMORY_HEAD_FILE = '.cairn/memory/MEMORY.md';
