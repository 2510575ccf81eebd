import { CairnError } from '@cairn/core';
import {
  approveAndPromoteFixPattern,
  type Cairn,
  deprecateFixPattern,
  listFixPatterns,
  openMaintenance,
  type Proposal,
  type ProposalDecisionResult,
  type StaleUnit,
} from '@cairn/engine';
import type { CommandContext, CommandOutput, CommandSpec } from '../command';
import { EXIT } from '../exit-codes';
import { unitOutcome } from './unit-outcome';

/**
 * `cairn review`: the review inbox (docs/MAINTENANCE.md). Without an action
 * it lists draft units, open proposals, stale units and candidate fix
 * patterns. `show <id>` prints a proposal's diff; `approve`, `reject`,
 * `undo` decide a proposal (P-…); `approve` and `deprecate` also take a
 * unit (UNIT:…, its review state changes in place) or a fix pattern (FIX-…).
 */

const ACTIONS = ['show', 'approve', 'reject', 'undo', 'deprecate'] as const;
type Action = (typeof ACTIONS)[number];

const kindOf = (id: string) =>
  id.startsWith('P-') ? 'proposal' : id.startsWith('FIX-') ? 'pattern' : 'unit';

function diffText(p: Proposal): string {
  const lines = (text: string, sign: string) =>
    text ? text.split('\n').map((line) => `${sign} ${line}`) : [];
  return [
    `${p.id} ${p.kind} (${p.state})`,
    p.summary,
    `why: ${p.reason}`,
    ...lines(p.before, '-'),
    ...lines(p.after, '+'),
    `evidence: ${p.evidence.join(', ') || '(none)'}`,
    `preconditions: ${Object.entries(p.patch.preconditions)
      .map(([id, hash]) => `${id}=${hash}`)
      .join(', ')}`,
  ].join('\n');
}

const staleLine = (s: StaleUnit) =>
  `${s.memoryId}  ${s.state === 'changed' ? 'code changed since' : s.state === 'deleted' ? 'possibly stale (code gone)' : 'code moved'}: ${s.anchor.path}${s.anchor.symbol ? ` \`${s.anchor.symbol}\`` : ''}${s.movedTo ? ` -> ${s.movedTo.path}:${s.movedTo.line}` : ''}\n  ${s.text}`;

async function inbox(cairn: Cairn): Promise<CommandOutput> {
  const maintenance = openMaintenance(cairn);
  const drafts = await cairn.list({ review: 'draft' });
  const proposals = await maintenance.proposals();
  const stale = await maintenance.staleUnits();
  const patterns = listFixPatterns(cairn.rootDir, {
    namespace: cairn.settings.memory.namespace,
    state: 'candidate',
  });
  const sections = [
    `Drafts (${drafts.length})`,
    ...drafts.map(
      (unit) =>
        `${unit.memoryId}  ${unit.category ?? ''}  ${unit.path}:${unit.startLine}\n  ${unit.text}${unit.source ? `\n  source: ${unit.source}` : ''}`,
    ),
    '',
    `Proposals (${proposals.length})`,
    ...proposals.map((p) => `${p.id}  ${p.kind}: ${p.summary}\n  why: ${p.reason}`),
    '',
    `Stale units (${stale.length})`,
    ...stale.map(staleLine),
    '',
    `Candidate fix patterns (${patterns.length})`,
    ...patterns.map(
      (p) => `${p.id}  ${p.normalized}  (${p.succeeded} succeeded, ${p.failed} failed)`,
    ),
  ];
  const empty = drafts.length + proposals.length + stale.length + patterns.length === 0;
  return {
    json: { ok: true, drafts, proposals, stale, patterns },
    text: empty ? '(nothing to review)' : sections.join('\n'),
  };
}

function decisionOutput(result: ProposalDecisionResult): CommandOutput {
  const json = { ok: result.outcome !== 'conflict', ...result };
  if (result.outcome === 'conflict') {
    return {
      json,
      text: '',
      exitCode: EXIT.FAILED,
      errorLine: `CONFLICT: ${result.message} — run \`cairn insights run\` to propose it again against the current units`,
    };
  }
  return { json, text: `${result.outcome} ${result.proposal.id}: ${result.message}` };
}

async function onProposal(
  context: CommandContext,
  action: Action,
  id: string,
): Promise<CommandOutput> {
  const maintenance = openMaintenance(await context.open());
  const note = typeof context.values.note === 'string' ? context.values.note : undefined;
  const options = { by: 'cli', ...(note ? { note } : {}) };
  if (action === 'show') {
    const proposal = await maintenance.proposal(id);
    return { json: { ok: true, proposal }, text: diffText(proposal) };
  }
  if (action === 'deprecate') {
    throw new CairnError(
      'INVALID_INPUT',
      'A proposal is approved, rejected or undone, not deprecated',
      {
        hint: `use \`cairn review reject ${id}\``,
      },
    );
  }
  const decide = {
    approve: maintenance.approve,
    reject: maintenance.reject,
    undo: maintenance.undo,
  }[action];
  return decisionOutput(await decide(id, options));
}

async function onOther(
  context: CommandContext,
  action: Action,
  id: string,
): Promise<CommandOutput> {
  const cairn = await context.open();
  if (kindOf(id) === 'pattern') {
    const namespace = cairn.settings.memory.namespace;
    if (action === 'approve') {
      const approved = await approveAndPromoteFixPattern(cairn.rootDir, cairn, id, { namespace });
      return {
        json: { ok: true, ...approved },
        text: `approved ${id} (${approved.promotion.action})`,
      };
    }
    if (action === 'deprecate' || action === 'reject') {
      const pattern = deprecateFixPattern(cairn.rootDir, id, { namespace });
      return { json: { ok: true, pattern }, text: `deprecated ${id}` };
    }
  }
  if (kindOf(id) === 'unit' && (action === 'approve' || action === 'deprecate')) {
    return unitOutcome(await cairn.setReview(id, action === 'approve' ? 'approved' : 'deprecated'));
  }
  if (kindOf(id) === 'unit' && action === 'show') {
    const unit = await cairn.get(id);
    return { json: { ok: true, unit }, text: `${unit.memoryId} (${unit.review})\n${unit.text}` };
  }
  throw new CairnError(
    'INVALID_INPUT',
    `\`cairn review ${action}\` does not take ${id.slice(0, 60)}`,
    {
      hint: 'units take approve / deprecate / show, fix patterns approve / deprecate, proposals (P-…) show / approve / reject / undo',
    },
  );
}

export const reviewCommand: CommandSpec = {
  name: 'review',
  summary:
    'The review inbox: drafts, proposals, stale units, fix patterns; `review show|approve|reject|undo|deprecate <id>`',
  usage:
    'cairn review [--json] | cairn review show <id> | cairn review approve|reject|undo <P-id> [--note <text>] | cairn review approve|deprecate <UNIT:id|FIX-id>',
  options: { note: { type: 'string', description: 'why; kept in memory-audit.md' } },
  positionals: { min: 0, max: 2 },
  subcommands: [
    {
      name: 'show',
      usage: 'cairn review show <id> [--json]',
      summary: "Show a proposal's diff, evidence and preconditions (P-…), or a unit (UNIT:…)",
      options: [],
    },
    {
      name: 'approve',
      usage: 'cairn review approve <P-id|UNIT:id|FIX-id> [--note <text>]',
      summary:
        'Apply a proposal atomically (a unit changed since: conflict, nothing written), approve a draft unit or a fix pattern',
      options: ['note'],
    },
    {
      name: 'reject',
      usage: 'cairn review reject <P-id> [--note <text>]',
      summary: 'Reject a proposal: recorded in memory-audit.md, never proposed again',
      options: ['note'],
    },
    {
      name: 'undo',
      usage: 'cairn review undo <P-id> [--note <text>]',
      summary: 'Revert an approved proposal: its units are put back as they were',
      options: ['note'],
    },
    {
      name: 'deprecate',
      usage: 'cairn review deprecate <UNIT:id|FIX-id>',
      summary: 'Deprecate a unit (kept and searchable, never injected) or a fix pattern',
      options: [],
    },
  ],
  async run(context) {
    const [action, id] = context.positionals;
    if (action === undefined) return inbox(await context.open());
    // The runner refused an unknown action (`checkSubcommand`); a known one needs its id.
    if (!id) {
      throw new CairnError('INVALID_INPUT', `\`cairn review ${action}\` needs an id`, {
        hint: '`cairn review` lists them: proposals (P-…), draft units (UNIT:…), fix patterns (FIX-…); a unique start of one works',
      });
    }
    return kindOf(id) === 'proposal'
      ? onProposal(context, action as Action, id)
      : onOther(context, action as Action, id);
  },
};
