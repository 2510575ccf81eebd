import {
  approveAndPromoteFixPattern,
  type Cairn,
  deprecateFixPattern,
  FIX_PATTERN_STATES,
  getFixPattern,
  listFixPatterns,
} from '@cairn/engine';
import { z } from 'zod';
import { defineTool, READ_ONLY } from './define-tool';
import { errorBody, UNIQUE_START } from './tool-schemas';

/*
 * Task history's fix patterns (docs/HISTORY.md): list, show,
 * approve, deprecate. An id that is not a fix pattern id is INVALID_INPUT,
 * an unknown one NOT_FOUND; either way nothing changes.
 */

const step = z.object({
  kind: z.string().describe('edit, config or run'),
  key: z.string().describe('What "followed" compares: edit, config or run:<command family>'),
  detail: z.string().describe('The file edited or the command run (secrets redacted)'),
  eventId: z.string().describe('The lineage transcript entry of the tool event'),
});

const pattern = z.object({
  id: z.string(),
  repo: z.string(),
  namespace: z.string(),
  signature: z.string(),
  family: z.string(),
  normalized: z.string().describe('The error as its signature reads it'),
  commandFamily: z.string().describe('The command family that failed, then succeeded'),
  stepsKey: z.string(),
  steps: z.array(step),
  state: z.string().describe('candidate, verified or deprecated'),
  reason: z.string().optional().describe('Why it was approved or deprecated, when said'),
  applied: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  failureEventId: z.string(),
  successEventId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const run = z.object({
  agentId: z.string(),
  sessionKey: z.string(),
  role: z.string().describe('origin, succeeded or failed'),
  failureEventId: z.string(),
  successEventId: z.string().optional(),
  at: z.string(),
});

const detail = pattern.extend({ runs: z.array(run) });

/**
 * The engine's nulls (no reason, no success event) become absent fields:
 * output schemas keep one `type` per property, which every client maps.
 */
function withoutNulls<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, field) => (field === null ? undefined : field)));
}
const idInput = z.strictObject({
  id: z
    .string()
    .describe(
      `A fix pattern id, FIX-<12 hex digits> (memory_fix_patterns lists them), or ${UNIQUE_START('FIX-1a2b')}`,
    ),
});
const judgeInput = idInput.extend({
  reason: z.string().max(500).optional().describe('Why; shown with the pattern'),
});
const detailOutput = z.object({ pattern: detail.optional(), error: errorBody.optional() });
const promotion = z.object({
  action: z
    .enum(['promoted', 'approved', 'unchanged', 'skipped'])
    .describe(
      'promoted: a new approved decision unit; approved: its draft unit approved in place; unchanged: already approved or deprecated by a review; skipped: nothing written',
    ),
  memoryId: z.string().optional(),
  review: z.string().optional(),
  previous: z.string().optional(),
  reason: z.string().optional(),
});
const approveOutput = detailOutput.extend({ promotion: promotion.optional() });

/** The namespace of the project's settings: patterns of another are not seen (NOT_FOUND). */
const inNamespace = (cairn: Cairn) => ({ namespace: cairn.settings.memory.namespace });

const JUDGE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

const memoryFixPatterns = defineTool({
  name: 'memory_fix_patterns',
  title: 'Fix patterns',
  description:
    'List the fix patterns task history learned in this project: for an error signature, the steps ' +
    '(edits, config changes, commands) that took a session from the failure to the same command ' +
    'succeeding, with state (candidate, verified, deprecated) and counts (applied, succeeded, failed). ' +
    'Best first. Reads only.',
  inputSchema: z.strictObject({
    state: z.enum(FIX_PATTERN_STATES).optional().describe('Only patterns in this state'),
    limit: z.number().int().min(1).max(1000).optional().describe('At most this many; default 100'),
  }),
  outputSchema: z.object({ patterns: z.array(pattern).optional(), error: errorBody.optional() }),
  annotations: READ_ONLY,
  run: async (cairn, args) => ({
    structured: {
      patterns: withoutNulls(
        listFixPatterns(cairn.rootDir, {
          ...inNamespace(cairn),
          ...(args.state ? { state: args.state } : {}),
          ...(args.limit ? { limit: args.limit } : {}),
        }),
      ),
    },
  }),
});

const memoryFixPattern = defineTool({
  name: 'memory_fix_pattern',
  title: 'Show a fix pattern',
  description:
    'One fix pattern with its steps and its evidence runs (the session it was learned from, and the ' +
    'later sessions that followed it and succeeded or failed). NOT_FOUND for an unknown id. Reads only.',
  inputSchema: idInput,
  outputSchema: detailOutput,
  annotations: READ_ONLY,
  run: async (cairn, args) => ({
    structured: {
      pattern: withoutNulls(getFixPattern(cairn.rootDir, args.id, inNamespace(cairn))),
    },
  }),
});

const memoryFixPatternApprove = defineTool({
  name: 'memory_fix_pattern_approve',
  title: 'Approve a fix pattern',
  description:
    'A person checked the fix pattern: it becomes verified, is shown before candidates after its ' +
    'error, and is promoted to an approved decision unit (its draft unit, when it has one, is ' +
    'approved in place, same id; approving again writes nothing), and shared with the other clones ' +
    'of the repository in .cairn/memory/fixes/. NOT_FOUND for an unknown id; nothing changes then.',
  inputSchema: judgeInput,
  outputSchema: approveOutput,
  annotations: JUDGE,
  run: async (cairn, args) => {
    const approved = await approveAndPromoteFixPattern(cairn.rootDir, cairn, args.id, {
      ...inNamespace(cairn),
      ...(args.reason ? { reason: args.reason } : {}),
    });
    // A verified pattern is shared with the other clones (docs/TEAMS.md).
    await cairn.syncSharedFixes();
    return {
      structured: {
        pattern: withoutNulls(approved.pattern),
        promotion: approved.promotion,
      },
    };
  },
});

const memoryFixPatternDeprecate = defineTool({
  name: 'memory_fix_pattern_deprecate',
  title: 'Deprecate a fix pattern',
  description:
    'Reject a fix pattern, or say it stopped working: it becomes deprecated and is never shown again ' +
    'after its error. NOT_FOUND for an unknown id; nothing changes then.',
  inputSchema: judgeInput,
  outputSchema: detailOutput,
  annotations: JUDGE,
  run: async (cairn, args) => {
    const pattern = deprecateFixPattern(cairn.rootDir, args.id, {
      ...inNamespace(cairn),
      ...(args.reason ? { reason: args.reason } : {}),
    });
    // A pattern this clone shared leaves its file (docs/TEAMS.md).
    await cairn.syncSharedFixes();
    return { structured: { pattern: withoutNulls(pattern) } };
  },
});

export const HISTORY_TOOLS = [
  memoryFixPatterns,
  memoryFixPattern,
  memoryFixPatternApprove,
  memoryFixPatternDeprecate,
];
