import { type BeadsIssue, isDone, parentOf } from './beads-issue';
import type { PackCandidate } from './pack-types';
import type { PlanningGraph, PlanningSource } from './planning-graph';
import { estimateCounter, type TokenCounter } from './token-estimate';

export interface PlanningRequest {
  projectRoot: string;
  /** An issue id the run is linked to (seed 004 `planning_ref`). */
  planningRef?: string;
  /** Texts that may name issues: the branch name, the prompt. */
  mentions?: string[];
  env?: NodeJS.ProcessEnv;
  counter?: TokenCounter;
  source?: PlanningSource;
  /** Ready siblings listed per issue; default 5. */
  maxSiblings?: number;
}

export interface PlanningResult {
  items: PackCandidate[];
  source: 'bd' | 'export' | 'none';
  /** The issues the pack is about. */
  issueIds: string[];
  /**
   * Corrupt export lines that were skipped; counted (one pass over the
   * whole export) when read, and 0 when the request named no issue.
   */
  skippedLines: number;
  /** What was not used and why (no `bd`, no export, an id that does not exist). */
  notes: string[];
}

/** Long descriptions are cut; the pack is a pointer, `bd show` has the rest. */
const MAX_FIELD_CHARS = 1200;
/** At most this many issues named in a prompt or branch are expanded. */
const MAX_TARGETS = 3;
/** A Beads id: `prefix-suffix` with a digit in the suffix (`bd-12`, `bd-a1b2`, `bd-12.3`). */
const ISSUE_ID = /\b[A-Za-z][A-Za-z0-9_]*-(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]+(?:\.[0-9]+)*\b/g;

const clip = (text: string) =>
  text.length > MAX_FIELD_CHARS ? `${text.slice(0, MAX_FIELD_CHARS).trimEnd()}…` : text;

/** Issue ids named in free text, in order of appearance, without repeats. */
export function mentionedIssueIds(texts: readonly string[]): string[] {
  const ids = texts.flatMap((text) => [...text.matchAll(ISSUE_ID)].map((m) => m[0]));
  return [...new Set(ids)];
}

const label = (issue: BeadsIssue) =>
  [issue.status, issue.priority === undefined ? undefined : `P${issue.priority}`, issue.issueType]
    .filter(Boolean)
    .join(', ');

const RELATION: Record<string, string> = {
  blocks: 'blocks',
  'parent-child': 'is the parent of',
  related: 'is related to',
  'discovered-from': 'led to the discovery of',
};

interface Builder {
  graph: PlanningGraph;
  counter: TokenCounter;
  items: PackCandidate[];
  seen: Set<string>;
}

function add(
  b: Builder,
  issue: BeadsIssue,
  suffix: string,
  text: string,
  score: number,
  why: string,
) {
  const id = `beads:${issue.id}${suffix}`;
  if (b.seen.has(id)) return;
  b.seen.add(id);
  b.items.push({
    id,
    plane: 'planning',
    text,
    source: b.graph.source === 'bd' ? 'beads (bd)' : `beads (${b.graph.file})`,
    trustClass: 'derived',
    provenance: {
      kind: 'beads',
      id: issue.id,
      ...(b.graph.file ? { file: b.graph.file } : {}),
      ...(issue.line ? { line: issue.line } : {}),
    },
    ...(issue.updatedAt ? { recency: issue.updatedAt } : {}),
    tokenCost: b.counter.count(text),
    score,
    why,
    // Every planning item stems from an issue the request names (its planningRef, an id it mentions).
    match: 'named',
  });
}

async function addDependencies(b: Builder, target: BeadsIssue) {
  const deps = [...target.dependsOn].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  for (const dependency of deps) {
    const other = await b.graph.get(dependency.id);
    if (!other) continue;
    const relation = RELATION[dependency.type] ?? dependency.type;
    const text = `${other.id} [${label(other)}] ${other.title} — ${relation} ${target.id}`;
    // An open blocker matters more than a done one.
    const score = dependency.type === 'blocks' && !isDone(other) ? 0.85 : 0.7;
    add(b, other, '', text, score, `${relation} ${target.id}`);
  }
}

async function addSiblings(b: Builder, target: BeadsIssue, max: number) {
  const parent = parentOf(target);
  if (!parent) return;
  const siblingIds = (await b.graph.children(parent)).filter((id) => id !== target.id);
  const ready = (await b.graph.ready(siblingIds))
    .sort((x, y) => (x.priority ?? 9) - (y.priority ?? 9) || (x.id < y.id ? -1 : 1))
    .slice(0, max);
  ready.forEach((issue, index) => {
    const text = `${issue.id} [ready, ${label(issue)}] ${issue.title} — ready sibling under ${parent}`;
    add(b, issue, '', text, 0.5 - index * 0.01, `ready sibling of ${target.id} under ${parent}`);
  });
}

async function addTarget(b: Builder, target: BeadsIssue, why: string, maxSiblings: number) {
  const body = [target.description, target.design && `Design: ${target.design}`]
    .filter(Boolean)
    .join('\n');
  const head = `${target.id} [${label(target)}] ${target.title}`;
  add(b, target, '', body ? `${head}\n${clip(body)}` : head, 1, why);
  if (target.acceptanceCriteria) {
    const text = `Acceptance criteria of ${target.id}:\n${clip(target.acceptanceCriteria)}`;
    add(b, target, '#acceptance', text, 0.95, `acceptance criteria of ${target.id}`);
  }
  await addDependencies(b, target);
  await addSiblings(b, target, maxSiblings);
}

/**
 * The planning plane (seed 004 §4.1): for the run's `planningRef`, or the
 * issues a branch name or prompt names, the issue, its acceptance
 * criteria, what it depends on and its ready siblings, as `derived` pack
 * candidates with the Beads id as provenance. Repository content is
 * untrusted; the renderer escapes it. No Beads at all is not an error.
 */
export async function planningCandidates(request: PlanningRequest): Promise<PlanningResult> {
  const env = request.env ?? process.env;
  // Beads' readers (its CLI, its JSONL export) load when a pack looks for planning, not with a hook.
  const { openPlanningGraph } = await import('./planning-graph');
  const opened = await openPlanningGraph(request.projectRoot, env, request.source);
  const notes = [...opened.notes];
  if (!opened.graph) return { items: [], source: 'none', issueIds: [], skippedLines: 0, notes };
  const graph = opened.graph;
  const b: Builder = {
    graph,
    counter: request.counter ?? estimateCounter,
    items: [],
    seen: new Set(),
  };
  const named = await graph.known(mentionedIssueIds(request.mentions ?? []));
  const wanted = request.planningRef ? [request.planningRef, ...named] : named;
  const targets: string[] = [];
  for (const id of [...new Set(wanted)].slice(0, MAX_TARGETS)) {
    const issue = await graph.get(id);
    if (!issue) {
      notes.push(`${id} is not a Beads issue here`);
      continue;
    }
    targets.push(id);
    const why =
      id === request.planningRef
        ? 'the run names it (planningRef)'
        : 'named in the branch or prompt';
    await addTarget(b, issue, why, request.maxSiblings ?? 5);
  }
  return {
    items: b.items,
    source: graph.source,
    issueIds: targets,
    // Counted on demand: the full pass over the export is not on the pack's path.
    get skippedLines() {
      return graph.skippedLines();
    },
    notes,
  };
}
