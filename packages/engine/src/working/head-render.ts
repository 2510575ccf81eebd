import {
  escapeMarkers,
  estimateTokens,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  THREAD_HEAD_END_MARKER,
  THREAD_HEAD_START_MARKER,
} from '@cairn/core';
import { withoutListLabel } from '../summaries';
import type { ThreadHeadState } from './thread-state';

/** A durable constraint for the head: an approved decision or preference unit. */
export interface HeadUnit {
  memoryId: string;
  text: string;
  updatedAt: string;
}

export interface HeadInput {
  threads: ThreadHeadState[];
  units: HeadUnit[];
  budgetTokens: number;
  now: string;
}

type Section = 'threads' | 'loops' | 'next' | 'constraints' | 'lineage';

const SECTION_TITLES: Record<Section, string> = {
  threads: '### Active threads',
  loops: '### Commitments and blockers',
  next: '### Next actions',
  constraints: '### Durable constraints',
  lineage: '### Lineage (drill down with memory_expand)',
};
const SECTION_ORDER: Section[] = ['threads', 'loops', 'next', 'constraints', 'lineage'];
/** Lower is more important, within one thread's rank. */
const SECTION_WEIGHT: Record<Section, number> = {
  threads: 0,
  next: 1,
  loops: 2,
  constraints: 3,
  lineage: 4,
};

interface Candidate {
  section: Section;
  line: string;
  priority: number;
}

const clip = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function threadCandidates(threads: ThreadHeadState[]): Candidate[] {
  const sorted = [...threads].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  // With several agents in one project, the same thread key can belong to each.
  const agents = new Set(threads.map((thread) => thread.agentId));
  return sorted.flatMap((thread, rank) => {
    const label =
      agents.size > 1 ? `\`${thread.threadKey}\` (${thread.agentId})` : `\`${thread.threadKey}\``;
    const base = rank * 10;
    const out: Candidate[] = [
      {
        section: 'threads',
        line: `- ${label}: ${clip(withoutListLabel('status', thread.status) || 'no summary yet')}`,
        priority: base,
      },
    ];
    if (thread.nextAction)
      out.push({
        section: 'next',
        line: `- ${label}: ${clip(withoutListLabel('nextSteps', thread.nextAction))}`,
        priority: base + 1,
      });
    thread.openLoops.forEach((loop, i) => {
      out.push({ section: 'loops', line: `- ${label}: ${clip(loop)}`, priority: base + 2 + i });
    });
    if (thread.lineage.length) {
      const refs = thread.lineage
        .slice(0, 3)
        .map((id) => `\`${id}\``)
        .join(', ');
      out.push({ section: 'lineage', line: `- ${label}: ${refs}`, priority: base + 4 });
    }
    return out;
  });
}

/**
 * The newest units, as many as could fit: every unit line costs at least
 * the tokens of its id, so a year of units is cut to what the budget can
 * hold before any line is built.
 */
function unitCandidates(units: HeadUnit[], budgetTokens: number): Candidate[] {
  const cheapest = estimateTokens('- x (`UNIT:00000000-0000-4000-8000-000000000000`)') + 1;
  return [...units]
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1))
    .slice(0, Math.ceil(budgetTokens / cheapest))
    .map((unit, i) => ({
      section: 'constraints' as const,
      line: `- ${clip(unit.text)} (\`${unit.memoryId}\`)`,
      priority: 3 + i * 10,
    }));
}

/**
 * Tier 1: the managed region of MEMORY.md. Lines are taken in priority
 * order (recent threads first, then their next actions, loops, durable
 * constraints, lineage) until the token budget is spent, so the head stays
 * bounded however many sessions the lineage holds.
 */
export function renderHeadRegion(input: HeadInput): string {
  const footer = `_Cairn head, rendered ${input.now}. Edit outside this region; it is rewritten._`;
  let used = estimateTokens(footer) + 8;
  const chosen = new Map<Section, string[]>();
  const candidates = [
    ...threadCandidates(input.threads),
    ...unitCandidates(input.units, input.budgetTokens),
  ].sort(
    (a, b) => a.priority - b.priority || SECTION_WEIGHT[a.section] - SECTION_WEIGHT[b.section],
  );
  for (const candidate of candidates) {
    const header = chosen.has(candidate.section)
      ? 0
      : estimateTokens(SECTION_TITLES[candidate.section]) + 1;
    const cost = estimateTokens(candidate.line) + 1 + header;
    if (used + cost > input.budgetTokens) continue;
    used += cost;
    chosen.set(candidate.section, [...(chosen.get(candidate.section) ?? []), candidate.line]);
  }
  const body = SECTION_ORDER.filter((s) => chosen.has(s)).flatMap((s) => [
    SECTION_TITLES[s],
    ...chosen.get(s)!,
    '',
  ]);
  if (body.length === 0) body.push('_No active threads yet._', '');
  // Thread facts come from prompts, tool output and summaries: a marker in
  // them must not open or close the region this text is written into.
  return escapeMarkers([...body, footer].join('\n'));
}

export interface RegionUpdate {
  content: string;
  /** The region had been edited outside Cairn; that text was kept below it. */
  keptUserEdit: boolean;
}

/** The markers of a managed region, and the title of the block that keeps an edit made inside it. */
export interface ManagedRegion {
  start: string;
  end: string;
  keptTitle: string;
}

export const MEMORY_HEAD_REGION: ManagedRegion = {
  start: HEAD_START_MARKER,
  end: HEAD_END_MARKER,
  keptTitle: 'Head text edited outside Cairn (kept)',
};

export const THREAD_HEAD_REGION: ManagedRegion = {
  start: THREAD_HEAD_START_MARKER,
  end: THREAD_HEAD_END_MARKER,
  keptTitle: 'Thread head text edited outside Cairn (kept)',
};

/**
 * Replaces the managed region of MEMORY.md (or of a thread head file, with
 * `markers`) and keeps every byte outside it. When the region itself was
 * edited since Cairn last rendered it (`lastRendered` differs), the edited
 * text is kept in a block right after the region instead of being
 * clobbered. A file without markers gets the region appended.
 */
export function replaceHeadRegion(
  content: string,
  region: string,
  lastRendered?: string,
  markers: ManagedRegion = MEMORY_HEAD_REGION,
): RegionUpdate {
  const start = content.indexOf(markers.start);
  const end = content.indexOf(markers.end);
  const block = `${markers.start}\n${region}\n${markers.end}`;
  if (start === -1 || end === -1 || end < start) {
    const separator =
      content === '' || content.endsWith('\n\n') ? '' : content.endsWith('\n') ? '\n' : '\n\n';
    return { content: `${content}${separator}${block}\n`, keptUserEdit: false };
  }
  // An editor that turned the file to CRLF did not edit the region.
  const current = content
    .slice(start + markers.start.length, end)
    .replace(/\r\n/g, '\n')
    .replace(/^\n/, '')
    .replace(/\n$/, '');
  const edited = lastRendered !== undefined && current.trim() !== '' && current !== lastRendered;
  const kept = edited ? `\n\n## ${markers.keptTitle}\n\n${current}\n` : '';
  const after = content.slice(end + markers.end.length);
  return { content: `${content.slice(0, start)}${block}${kept}${after}`, keptUserEdit: edited };
}

/** The managed region's text, or undefined when the markers are missing. */
export function currentHeadRegion(content: string): string | undefined {
  const start = content.indexOf(HEAD_START_MARKER);
  const end = content.indexOf(HEAD_END_MARKER);
  if (start === -1 || end < start) return undefined;
  return content
    .slice(start + HEAD_START_MARKER.length, end)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}
