import {
  CairnError,
  idPrefixOf,
  type MemoryUnit,
  PROPOSAL_ID_KIND,
  resolveIdPrefix,
} from '@cairn/core';
import type { CodeAnchor } from '../anchors';
import { ABSENT_UNIT, type UnitPatch, type UnitPatchOp, unitContentHash } from '../units';
import { appendAudit, decidedRecently, decisionEntry, writeDreams } from './maintenance-diary';
import type { MaintenanceStore } from './maintenance-store';
import type {
  Proposal,
  ProposalDecisionResult,
  ProposalUndo,
  StaleUnit,
} from './maintenance-types';
import type { MaintenanceMemory } from './run-maintenance';

/**
 * A person's decision on a proposal. Approve applies its patch through the
 * unit store, atomically and only while every unit still has the hash the
 * proposal was made against (else the proposal becomes `conflict` and
 * nothing is written); reject records it so no run proposes it again;
 * undo applies the inverse of an approved patch under the same rule.
 */

export interface DecisionContext {
  memory: MaintenanceMemory;
  store: MaintenanceStore;
  now: Date;
  /** Who decides (`cli`, `mcp`, `dashboard`), and why when said. */
  by: string;
  note?: string;
  /** Anchors a unit's code citations at HEAD (written or approved units are anchored). */
  anchor?: (memoryId: string, text: string) => Promise<CodeAnchor[]>;
  stale?: () => Promise<StaleUnit[]>;
}

export const PROPOSAL_ID_PATTERN = /^P-[0-9a-f]{12}$/;

/**
 * The whole proposal id an input names: a whole id as it is, or a unique
 * start of one (`P-1a2b`, `1a2b`) among the stored proposals; a start
 * several share is CONFLICT listing them, one none has NOT_FOUND.
 */
export function resolveProposalId(store: MaintenanceStore, id: string): string {
  if (typeof id === 'string' && PROPOSAL_ID_PATTERN.test(id)) return id;
  const prefix = idPrefixOf(id, PROPOSAL_ID_KIND);
  if (!prefix) {
    throw new CairnError(
      'INVALID_INPUT',
      `${JSON.stringify(String(id)).slice(0, 40)} is not a proposal id`,
      {
        hint: 'proposal ids look like P-<12 hex digits> (or a unique start of one, P-1a2b); list them with `cairn review`',
      },
    );
  }
  return resolveIdPrefix(id, PROPOSAL_ID_KIND, store.idsStartingWith(prefix));
}

function load(store: MaintenanceStore, input: string) {
  const id = resolveProposalId(store, input);
  const proposal = store.get(id);
  if (!proposal) {
    throw new CairnError('NOT_FOUND', `No proposal ${id} on this machine`, {
      hint: 'list proposals with `cairn review`; `cairn insights run` makes them (they are per machine)',
    });
  }
  return proposal;
}

/** The patch that puts every unit back as `before` had it. */
export function inversePatch(
  ops: readonly UnitPatchOp[],
  before: Record<string, MemoryUnit | null>,
  after: Record<string, string>,
): UnitPatch {
  const inverse: UnitPatchOp[] = [];
  for (const op of ops) {
    const was = before[op.memoryId];
    if (!was) inverse.push({ op: 'remove', memoryId: op.memoryId });
    else if (op.op === 'set-review')
      inverse.push({ op: 'set-review', memoryId: op.memoryId, review: was.review });
    else if (op.op === 'replace-text')
      inverse.push({ op: 'replace-text', memoryId: op.memoryId, text: was.text });
  }
  return { preconditions: { ...after }, ops: inverse };
}

async function finish(
  ctx: DecisionContext,
  proposal: Proposal,
  outcome: ProposalDecisionResult['outcome'],
  message: string,
  undo?: ProposalUndo,
): Promise<ProposalDecisionResult> {
  ctx.store.put(proposal, undo);
  const at = ctx.now.toISOString();
  await appendAudit(ctx.memory.writer, [decisionEntry(proposal, outcome, message, at)]);
  const stale = ctx.stale ? await ctx.stale().catch(() => []) : [];
  await writeDreams(ctx.memory.writer, ctx.store.list(['open']), decidedRecently(ctx.store), stale);
  return { proposal, outcome, message };
}

const decided = (ctx: DecisionContext, p: Proposal, state: Proposal['state']): Proposal => ({
  ...p,
  state,
  decidedAt: ctx.now.toISOString(),
  decidedBy: ctx.by,
  ...(ctx.note ? { note: ctx.note } : {}),
});

async function currentHash(ctx: DecisionContext, memoryId: string): Promise<string> {
  const unit = (await ctx.memory.list()).find((u) => u.memoryId === memoryId);
  return unit?.category && unit.review
    ? unitContentHash({ category: unit.category, review: unit.review, text: unit.text })
    : ABSENT_UNIT;
}

async function approveReanchor(ctx: DecisionContext, p: Proposal): Promise<ProposalDecisionResult> {
  const memoryId = p.unitIds[0]!;
  const expected = p.patch.preconditions[memoryId];
  if ((await currentHash(ctx, memoryId)) !== expected) {
    return finish(
      ctx,
      decided(ctx, p, 'conflict'),
      'conflict',
      `${memoryId} changed since; nothing was written`,
    );
  }
  const previous = ctx.store.anchors().filter((a) => a.memoryId === memoryId);
  ctx.store.setAnchors(memoryId, p.anchors ?? []);
  return finish(ctx, decided(ctx, p, 'approved'), 'applied', `anchors of ${memoryId} updated`, {
    anchors: { memoryId, anchors: previous },
  });
}

export async function approveProposal(
  ctx: DecisionContext,
  id: string,
): Promise<ProposalDecisionResult> {
  const p = load(ctx.store, id);
  if (p.state === 'approved')
    return { proposal: p, outcome: 'applied', message: 'already approved; nothing written' };
  if (p.state !== 'open') {
    throw new CairnError(
      'INVALID_INPUT',
      `${id} is ${p.state}; only an open proposal can be approved`,
      {
        hint:
          p.state === 'conflict'
            ? 'run `cairn insights run` to propose it again against the current units'
            : 'nothing was changed',
      },
    );
  }
  if (p.kind === 'reanchor') return approveReanchor(ctx, p);
  const result = await ctx.memory.patchUnits(p.patch);
  if (result.action === 'conflict') {
    return finish(
      ctx,
      decided(ctx, p, 'conflict'),
      'conflict',
      `${result.message}; nothing was written`,
    );
  }
  if (result.action === 'failed') {
    throw new CairnError('WRITE_FAILED', `Could not apply ${id}: ${result.message}`, {
      hint: 'nothing was changed; try again',
    });
  }
  for (const op of p.patch.ops) {
    if (op.op !== 'add' && op.op !== 'replace-text') continue;
    if (ctx.anchor)
      ctx.store.setAnchors(op.memoryId, await ctx.anchor(op.memoryId, op.text).catch(() => []));
  }
  const undo = { patch: inversePatch(p.patch.ops, result.before, result.after) };
  return finish(
    ctx,
    decided(ctx, p, 'approved'),
    'applied',
    `applied to ${result.paths.join(', ')}`,
    undo,
  );
}

export async function rejectProposal(
  ctx: DecisionContext,
  id: string,
): Promise<ProposalDecisionResult> {
  const p = load(ctx.store, id);
  if (p.state === 'rejected')
    return { proposal: p, outcome: 'rejected', message: 'already rejected' };
  if (p.state !== 'open' && p.state !== 'conflict') {
    throw new CairnError(
      'INVALID_INPUT',
      `${id} is ${p.state}; only an open proposal can be rejected`,
      {
        hint:
          p.state === 'approved' ? 'undo it with `cairn review undo <id>`' : 'nothing was changed',
      },
    );
  }
  return finish(
    ctx,
    decided(ctx, p, 'rejected'),
    'rejected',
    'rejected; it will not be proposed again',
  );
}

export async function undoProposal(
  ctx: DecisionContext,
  id: string,
): Promise<ProposalDecisionResult> {
  const p = load(ctx.store, id);
  if (p.state === 'undone') return { proposal: p, outcome: 'undone', message: 'already undone' };
  if (p.state !== 'approved' || !p.undo) {
    throw new CairnError(
      'INVALID_INPUT',
      `${id} is ${p.state}; only an approved proposal can be undone`,
      {
        hint: 'nothing was changed',
      },
    );
  }
  const { undo, ...proposal } = p;
  if (undo.anchors) ctx.store.setAnchors(undo.anchors.memoryId, undo.anchors.anchors);
  if (undo.patch && undo.patch.ops.length > 0) {
    const result = await ctx.memory.patchUnits(undo.patch);
    if (result.action === 'conflict') {
      const message = `${result.message}: undoing would overwrite that change; nothing was written`;
      await appendAudit(ctx.memory.writer, [
        decisionEntry(proposal, 'undo-conflict', message, ctx.now.toISOString()),
      ]);
      return { proposal, outcome: 'conflict', message };
    }
    if (result.action === 'failed') {
      throw new CairnError('WRITE_FAILED', `Could not undo ${id}: ${result.message}`, {
        hint: 'nothing was changed; try again',
      });
    }
  }
  return finish(
    ctx,
    decided(ctx, proposal, 'undone'),
    'undone',
    'the approved change was reverted',
  );
}
