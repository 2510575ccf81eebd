import { MEMORY_AUDIT_FILENAME, MEMORY_DREAMS_FILENAME } from '@cairn/core';
import type { WorkspaceWriter } from '../store';
import {
  AUDIT_MAX_BYTES,
  clipLine,
  DREAMS_MAX_BYTES,
  readWorkspaceFile,
  regionBody,
  withinBudget,
  writeRegion,
} from './maintenance-files';
import type { MaintenanceStore } from './maintenance-store';
import type { MaintenanceRun, Proposal, StaleUnit } from './maintenance-types';

/**
 * DREAMS.md (the human-readable diary of proposals) and memory-audit.md
 * (what each run and each decision did, and why), both as Cairn-managed
 * regions. The audit is kept in the file itself, newest entry first, so a
 * teammate's entries merged in by git stay; entries past AUDIT_MAX_BYTES
 * are pruned and the pruning is itself recorded.
 */

const quote = (text: string) => `“${clipLine(text, 100)}”`;

/** Each unit's text as the proposal's `before` gives it (`<id>[ (<review>)]: <text>` lines). */
function textsOf(p: Proposal): Map<string, string> {
  const texts = new Map<string, string>();
  for (const line of p.before.split('\n')) {
    const match = /^(UNIT:[0-9a-f-]{36})(?: \([a-z]+\))?: (.*)$/.exec(line);
    if (match) texts.set(match[1]!, match[2]!);
  }
  return texts;
}

/** What the patch does to each unit, one line each: keep, deprecate, add, re-anchor. */
function unitLines(p: Proposal): string[] {
  const texts = textsOf(p);
  const touched = new Set(p.patch.ops.map((op) => op.memoryId));
  const lines = p.unitIds
    .filter((id) => !touched.has(id) && texts.has(id))
    .map((id) => `  - keep ${id}: ${quote(texts.get(id)!)}`);
  for (const op of p.patch.ops) {
    if (op.op === 'set-review')
      lines.push(
        `  - ${op.review === 'deprecated' ? 'deprecate' : op.review} ${op.memoryId}: ${quote(texts.get(op.memoryId) ?? '')}`,
      );
    else if (op.op === 'add')
      lines.push(`  - add as ${op.review} ${op.category} ${op.memoryId}: ${quote(op.text)}`);
    else if (op.op === 'replace-text') lines.push(`  - rewrite ${op.memoryId}: ${quote(op.text)}`);
  }
  if (p.kind === 'reanchor') lines.push(`  - anchor: ${p.before} -> ${p.after}`);
  return lines;
}

function proposalLine(p: Proposal): string {
  return [
    `- **${p.id}** ${p.kind}: ${clipLine(p.summary, 160)}`,
    `  - why: ${clipLine(p.reason, 160)}`,
    ...unitLines(p),
    ...(p.evidence.length ? [`  - evidence: ${p.evidence.slice(0, 6).join(', ')}`] : []),
  ].join('\n');
}

export function renderDreams(
  open: readonly Proposal[],
  decided: readonly Proposal[],
  stale: readonly StaleUnit[],
): string {
  const sections = [
    `## Proposals waiting for review (${open.length})`,
    '',
    'Made by `cairn insights run`; nothing changes until a person decides. `cairn review` lists them, `cairn review show <id>` shows the diff, `cairn review approve <id>` / `reject <id>` decides, `cairn review undo <id>` reverts an approval.',
    '',
    ...(open.length ? open.map(proposalLine) : ['(none)']),
  ];
  if (stale.length) {
    sections.push('', `## Units whose code changed (${stale.length})`, '');
    for (const unit of stale) {
      const at = unit.anchor.symbol
        ? `${unit.anchor.path} \`${unit.anchor.symbol}\``
        : unit.anchor.path;
      sections.push(
        `- ${unit.memoryId} ${unit.state}: ${at}${unit.movedTo ? ` now in ${unit.movedTo.path}:${unit.movedTo.line}` : ''} — ${quote(unit.text)}`,
      );
    }
  }
  if (decided.length) {
    sections.push('', '## Recently decided', '');
    for (const p of decided.slice(0, 20)) {
      sections.push(
        `- ${p.id} ${p.kind} ${p.state} ${p.decidedAt?.slice(0, 19) ?? ''}${p.decidedBy ? ` by ${p.decidedBy}` : ''}`,
      );
    }
  }
  const { kept } = withinBudget(sections, DREAMS_MAX_BYTES);
  return `${kept.join('\n')}\n`;
}

export function writeDreams(
  writer: WorkspaceWriter,
  open: readonly Proposal[],
  decided: readonly Proposal[],
  stale: readonly StaleUnit[],
): Promise<boolean> {
  return writeRegion(writer, MEMORY_DREAMS_FILENAME, renderDreams(open, decided, stale));
}

export function runEntry(run: MaintenanceRun, proposed: readonly Proposal[]): string {
  const kinds = Object.entries(run.proposed)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  const e = run.examined;
  const model = run.model
    ? `model ${run.model.name}: ${run.model.promptTokens} prompt + ${run.model.completionTokens} completion tokens of a ${run.model.budgetTokens}-token budget`
    : `extractive (no model)${run.modelNote ? `; ${run.modelNote}` : ''}`;
  return [
    `### ${run.finishedAt} run ${run.runId} (${run.trigger})`,
    `- examined: ${e.units} units, ${e.notes} notes, ${e.threads} thread heads, ${e.summaries} session summaries, ${e.digests} run digests, ${e.patterns} fix patterns`,
    `- proposed: ${kinds || 'nothing new'}${proposed.length ? ` (${proposed.map((p) => p.id).join(', ')})` : ''}`,
    `- conflicts: ${run.conflicts} proposal(s) whose units changed since`,
    `- insights: ${run.insights}; pruned: ${run.pruned.insights} insight line(s), ${run.pruned.audit} audit entr(ies)`,
    `- ${model}`,
    `- took ${Math.round(run.ms)} ms`,
  ].join('\n');
}

export function decisionEntry(p: Proposal, outcome: string, message: string, at: string): string {
  return [
    `### ${at} ${outcome} ${p.id} (${p.kind})${p.decidedBy ? ` by ${p.decidedBy}` : ''}`,
    `- ${clipLine(p.summary, 200)}`,
    `- ${clipLine(message, 200)}`,
    ...(p.note ? [`- note: ${clipLine(p.note, 200)}`] : []),
  ].join('\n');
}

function splitEntries(body: string | undefined): string[] {
  if (!body) return [];
  const entries: string[] = [];
  for (const line of body.split('\n')) {
    if (/^\(\d+ older entr/.test(line)) continue;
    if (line.startsWith('### ')) entries.push(line);
    else if (entries.length > 0) entries[entries.length - 1] += `\n${line}`;
  }
  return entries.map((entry) => entry.trimEnd());
}

/** Prepends entries to the audit region, pruning the oldest past the budget; returns how many were pruned. */
export async function appendAudit(
  writer: WorkspaceWriter,
  entries: readonly string[],
): Promise<number> {
  const current = regionBody(
    await readWorkspaceFile(writer, MEMORY_AUDIT_FILENAME),
    MEMORY_AUDIT_FILENAME,
  );
  const all = [...entries, ...splitEntries(current)];
  const header =
    '## Audit\n\nWhat each maintenance run examined, proposed and pruned, and each review decision; newest first.\n';
  // Entries are joined by a blank line; the header, the pruning note and the markers fit in the rest.
  const { kept, dropped } = withinBudget(all, AUDIT_MAX_BYTES - header.length - 200, '\n\n');
  const tail = dropped
    ? [`(${dropped} older entr(ies) pruned to stay within ${AUDIT_MAX_BYTES} bytes)`]
    : [];
  await writeRegion(
    writer,
    MEMORY_AUDIT_FILENAME,
    `${header}\n${[...kept, ...tail].join('\n\n')}\n`,
  );
  return dropped;
}

/** The newest decided proposals, for DREAMS.md's "recently decided". */
export function decidedRecently(store: MaintenanceStore): Proposal[] {
  return store
    .list(['approved', 'rejected', 'undone', 'conflict'])
    .sort((a, b) => ((a.decidedAt ?? '') < (b.decidedAt ?? '') ? 1 : -1))
    .slice(0, 20);
}
