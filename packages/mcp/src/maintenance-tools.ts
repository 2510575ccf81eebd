import { openMaintenance, PROPOSAL_KINDS, PROPOSAL_STATES } from '@cairn/engine';
import { z } from 'zod';
import { defineTool, READ_ONLY } from './define-tool';
import { errorBody, UNIQUE_START } from './tool-schemas';

/*
 * Maintenance (docs/MAINTENANCE.md): the proposals an extraction run made,
 * their review (approve applies the patch only while every unit still has
 * the hash it was proposed against; otherwise `conflict` and nothing is
 * written), the units whose cited code moved, changed or is gone, and the
 * runs themselves. The same engine API as `cairn review` and `cairn insights`.
 */

const proposal = z.object({
  id: z.string().describe('P-<12 hex digits>'),
  kind: z.enum(PROPOSAL_KINDS),
  state: z.enum(PROPOSAL_STATES),
  unitIds: z.array(z.string()),
  summary: z.string(),
  reason: z.string(),
  before: z.string().describe('The affected text before, for a diff'),
  after: z.string().describe('The affected text after'),
  evidence: z.array(z.string()).describe('Unit ids, node:…, run:…, FIX-…, commit:…'),
  createdAt: z.string(),
  decidedAt: z.string().optional(),
  decidedBy: z.string().optional(),
  note: z.string().optional(),
});

/** Only the fields the schema lists: the patch and anchors stay inside the engine. */
const shown = (p: z.input<typeof proposal>) => proposal.parse(p);

const staleUnit = z.object({
  memoryId: z.string(),
  state: z.enum(['moved', 'changed', 'deleted']),
  anchor: z.object({
    path: z.string(),
    symbol: z.string().optional(),
    line: z.number().optional(),
    commit: z.string(),
  }),
  movedTo: z.object({ path: z.string(), line: z.number() }).optional(),
  text: z.string(),
  checkedAt: z.string(),
});

const memoryProposals = defineTool({
  name: 'memory_proposals',
  title: 'Consolidation proposals',
  description:
    'The changes maintenance proposes (merge near duplicates, contradictions, promotions of recurring ' +
    'errors and verified fixes to draft units, deprecations of unused units or units whose code is ' +
    'gone, re-anchoring of moved code), with before/after text and evidence. Nothing is applied until ' +
    'memory_proposal_decide approves it. Open ones by default. Reads only.',
  inputSchema: z.strictObject({
    state: z
      .enum(PROPOSAL_STATES)
      .optional()
      .describe('Only proposals in this state; default open'),
  }),
  outputSchema: z.object({ proposals: z.array(proposal).optional(), error: errorBody.optional() }),
  annotations: READ_ONLY,
  run: async (cairn, args) => ({
    structured: {
      proposals: (await openMaintenance(cairn).proposals([args.state ?? 'open'])).map(shown),
    },
  }),
});

const memoryProposalDecide = defineTool({
  name: 'memory_proposal_decide',
  title: 'Decide a proposal',
  description:
    'Approve (apply its patch atomically; if a unit changed since, the outcome is conflict and nothing ' +
    'is written), reject (it is never proposed again) or undo (revert an approved one) a proposal. ' +
    'Every decision is recorded in memory-audit.md. NOT_FOUND for an unknown id, INVALID_INPUT for a ' +
    'malformed one, CONFLICT listing the ids for a start several share; nothing changes then.',
  inputSchema: z.strictObject({
    id: z
      .string()
      .describe(`P-<12 hex digits> from memory_proposals, or ${UNIQUE_START('P-1a2b')}`),
    decision: z.enum(['approve', 'reject', 'undo']),
    note: z.string().max(500).optional().describe('Why; kept in the audit'),
  }),
  outputSchema: z.object({
    outcome: z.enum(['applied', 'rejected', 'undone', 'conflict']).optional(),
    message: z.string().optional(),
    proposal: proposal.optional(),
    error: errorBody.optional(),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (cairn, args) => {
    const maintenance = openMaintenance(cairn);
    const options = { by: 'mcp', ...(args.note ? { note: args.note } : {}) };
    const decide = {
      approve: maintenance.approve,
      reject: maintenance.reject,
      undo: maintenance.undo,
    }[args.decision];
    const result = await decide(args.id, options);
    return {
      structured: {
        outcome: result.outcome,
        message: result.message,
        proposal: shown(result.proposal),
      },
      isError: result.outcome === 'conflict',
    };
  },
});

const memoryStaleUnits = defineTool({
  name: 'memory_stale_units',
  title: 'Units whose code changed',
  description:
    'Units that cite code (a path, path:line, a symbol in backticks) whose code moved, changed or is ' +
    'gone at the current git HEAD, checked once per HEAD. Outside git nothing is stale. Nothing is ' +
    'deprecated here: deleted code gets a deprecation proposal (memory_proposals).',
  inputSchema: z.strictObject({}),
  outputSchema: z.object({ stale: z.array(staleUnit).optional(), error: errorBody.optional() }),
  annotations: READ_ONLY,
  run: async (cairn) => ({ structured: { stale: await openMaintenance(cairn).staleUnits() } }),
});

const memoryInsightsRun = defineTool({
  name: 'memory_insights_run',
  title: 'Run insight extraction',
  description:
    'One maintenance run now (or, with ifDue, only when the schedule says so): rewrites ' +
    'memory-insights.md, adds new proposals to DREAMS.md, appends to memory-audit.md. Edits no unit. ' +
    'Idempotent: a second run proposes nothing new.',
  inputSchema: z.strictObject({
    ifDue: z
      .boolean()
      .optional()
      .describe('Run only when insightExtractionSchedule says it is due'),
  }),
  outputSchema: z.object({
    action: z.enum(['ran', 'not-due']).optional(),
    nextDueAt: z.string().optional(),
    runId: z.string().optional(),
    proposed: z.record(z.string(), z.number()).optional(),
    proposals: z.array(proposal).optional(),
    insights: z.number().optional(),
    error: errorBody.optional(),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (cairn, args) => {
    const outcome = await openMaintenance(cairn).run({
      ifDue: args.ifDue === true,
      trigger: args.ifDue ? 'schedule' : 'manual',
    });
    if (outcome.action === 'not-due') return { structured: outcome };
    return {
      structured: {
        action: 'ran',
        runId: outcome.run.runId,
        proposed: outcome.run.proposed,
        proposals: outcome.proposals.map(shown),
        insights: outcome.run.insights,
      },
    };
  },
});

export const MAINTENANCE_TOOLS = [
  memoryProposals,
  memoryProposalDecide,
  memoryStaleUnits,
  memoryInsightsRun,
];
