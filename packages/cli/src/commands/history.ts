import { CairnError } from '@cairn/core';
import {
  type ApprovalPromotion,
  approveAndPromoteFixPattern,
  checkFixPatternState,
  deprecateFixPattern,
  errorSignature,
  type FixPattern,
  type FixPatternDetail,
  getFixPattern,
  listFixPatterns,
  patternStateLabel,
  renderFixPattern,
  type SharedFixesSync,
} from '@cairn/engine';
import type { CommandContext, CommandOutput, CommandSpec, SubcommandSpec } from '../command';
import {
  DIGEST_OPTIONS,
  DIGEST_USAGE,
  isDigestSubcommand,
  runDigestSubcommand,
} from './history-digests';
import { stringFlag } from './text-input';

/** What `cairn history signature` reads from stdin at most: 1 MiB (an error, not a whole log). */
export const SIGNATURE_STDIN_MAX_BYTES = 1024 * 1024;

const SUBCOMMANDS = ['signature', 'patterns', 'pattern', 'approve', 'deprecate', 'share'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];
const TAKES_ID = new Set<Subcommand>(['pattern', 'approve', 'deprecate']);

async function signature({ io, values }: CommandContext): Promise<CommandOutput> {
  const text = await io.readStdin({ maxBytes: SIGNATURE_STDIN_MAX_BYTES });
  if (!text?.trim()) {
    throw new CairnError('INVALID_INPUT', 'No error text on standard input', {
      hint: 'pipe the failing output in: `pnpm test 2>&1 | cairn history signature --command "pnpm test"`',
    });
  }
  const tool = stringFlag(values.tool);
  const command = stringFlag(values.command);
  const result = errorSignature(text, {
    ...(tool ? { tool } : {}),
    ...(command ? { command } : {}),
  });
  const json = {
    signature: result.signature,
    family: result.family,
    normalized: result.normalized,
  };
  return { json, text: JSON.stringify(json) };
}

function patternLine(pattern: FixPattern): string {
  const counts = `applied ${pattern.applied}, succeeded ${pattern.succeeded}, failed ${pattern.failed}`;
  return `${pattern.id}  ${pattern.state.padEnd(10)} ${counts}  ${pattern.normalized}`;
}

/** The namespace the project's settings name (`memory.namespace`): patterns of others are not seen. */
const namespaceOf = async (context: CommandContext) =>
  (await context.open()).settings.memory.namespace;

/** The other clones' shared fix patterns, imported before a read (docs/TEAMS.md). */
async function importShared(context: CommandContext): Promise<void> {
  await (await context.open()).syncSharedFixes({ write: false });
}

function shareLines(sync: SharedFixesSync): string[] {
  return [
    ...(sync.applied.length
      ? [`Imported ${sync.applied.join(', ')} (${sync.added} new patterns).`]
      : []),
    ...sync.refused.map((r) => `Refused ${r.path}: ${r.reason}`),
    ...(sync.wrote ? [`Shared this clone's verified patterns in ${sync.wrote}.`] : []),
  ];
}

/** `cairn history share`: imports the other clones' fix patterns and writes this clone's. */
async function share(context: CommandContext): Promise<CommandOutput> {
  const sync = await (await context.open()).syncSharedFixes();
  const lines = shareLines(sync);
  return {
    json: { ...sync },
    text: lines.length
      ? lines.join('\n')
      : 'Nothing to import; what this clone shares is up to date.',
    ...(sync.refused.length ? { exitCode: 1 } : {}),
  };
}

async function patterns(context: CommandContext): Promise<CommandOutput> {
  await importShared(context);
  const state = stringFlag(context.values.state);
  const list = listFixPatterns(context.root, {
    namespace: await namespaceOf(context),
    ...(state ? { state: checkFixPatternState(state) } : {}),
  });
  const text = list.length
    ? list.map(patternLine).join('\n')
    : 'No fix patterns yet: they are learned when a failing command later succeeds in a session.';
  return { json: { patterns: list }, text };
}

function detailText(detail: FixPatternDetail): string {
  const runs = detail.runs.map(
    (run) =>
      `  ${run.role.padEnd(9)} ${run.agentId}/${run.sessionKey}  failure ${run.failureEventId}${run.successEventId ? `, success ${run.successEventId}` : ''}  ${run.at}`,
  );
  const shared = (detail.shared ?? []).map(
    (e) =>
      `  .cairn/memory/fixes/${e.author}.md (${e.sourceId}): applied ${e.applied}, succeeded ${e.succeeded}, failed ${e.failed}`,
  );
  return [
    ...renderFixPattern(detail),
    `State: ${patternStateLabel(detail)}; applied ${detail.applied}, succeeded ${detail.succeeded}, failed ${detail.failed}`,
    `Signature ${detail.signature} (${detail.family}), repo ${detail.repo}, namespace ${detail.namespace}`,
    'Evidence runs:',
    ...runs,
    ...(shared.length ? ['Shared by other clones (included in the counts):', ...shared] : []),
  ].join('\n');
}

function promotionLine(promotion: ApprovalPromotion): string {
  switch (promotion.action) {
    case 'promoted':
      return `Promoted to the approved decision unit ${promotion.memoryId}.`;
    case 'approved':
      return `Its unit ${promotion.memoryId} was ${promotion.previous}: now approved (same id).`;
    case 'unchanged':
      return `Its unit ${promotion.memoryId} is ${promotion.review}: ${promotion.reason}.`;
    default:
      return `Not promoted: ${promotion.reason}.`;
  }
}

async function approve(context: CommandContext, id: string): Promise<CommandOutput> {
  const cairn = await context.open();
  const reason = stringFlag(context.values.reason);
  const { pattern, promotion } = await approveAndPromoteFixPattern(cairn.rootDir, cairn, id, {
    namespace: cairn.settings.memory.namespace,
    ...(reason ? { reason } : {}),
  });
  const sync = await cairn.syncSharedFixes();
  return {
    json: { pattern, promotion, shared: sync },
    text: [detailText(pattern), promotionLine(promotion), ...shareLines(sync)].join('\n'),
  };
}

async function withId(context: CommandContext, sub: Subcommand): Promise<CommandOutput> {
  const id = context.positionals[1];
  if (!id) {
    throw new CairnError('INVALID_INPUT', `\`cairn history ${sub}\` needs a fix pattern id`, {
      hint: '`cairn history patterns` lists them (FIX-…)',
    });
  }
  if (sub === 'approve') return approve(context, id);
  const reason = stringFlag(context.values.reason);
  const options = { namespace: await namespaceOf(context), ...(reason ? { reason } : {}) };
  if (sub === 'deprecate') {
    const detail = deprecateFixPattern(context.root, id, options);
    // A pattern this clone shared leaves its file.
    const sync = await (await context.open()).syncSharedFixes();
    return {
      json: { pattern: detail, shared: sync },
      text: [detailText(detail), ...shareLines(sync)].join('\n'),
    };
  }
  await importShared(context);
  const detail = getFixPattern(context.root, id, options);
  return { json: { pattern: detail }, text: detailText(detail) };
}

/** Each subcommand's usage, for `cairn history <sub> --help` and the CLI reference. */
const HISTORY_SUBCOMMANDS: readonly SubcommandSpec[] = [
  {
    name: 'signature',
    usage: 'cairn history signature [--tool <name>] [--command <cmd>] < error.txt',
    summary:
      'Print the error signature of the error text on stdin, as JSON (for scripts and tests)',
    options: ['tool', 'command'],
  },
  {
    name: 'patterns',
    usage: 'cairn history patterns [--state candidate|verified|deprecated] [--json]',
    summary:
      'List the fix patterns learned when a failing command later succeeded, with their outcomes',
    options: ['state'],
  },
  {
    name: 'pattern',
    usage: 'cairn history pattern <id> [--json]',
    summary:
      'Show one fix pattern (an id or a unique start of one): steps, state, outcomes, evidence runs',
    options: [],
  },
  {
    name: 'approve',
    usage: 'cairn history approve <id> [--reason <text>]',
    summary:
      "Mark a fix pattern verified, promote its lesson to a unit, and share it with the team's clones",
    options: ['reason'],
  },
  {
    name: 'deprecate',
    usage: 'cairn history deprecate <id> [--reason <text>]',
    summary: 'Stop suggesting a fix pattern; it is kept, shown as deprecated',
    options: ['reason'],
  },
  {
    name: 'share',
    usage: 'cairn history share',
    summary: "Import the other clones' fix patterns and write this clone's verified ones",
    options: [],
  },
  {
    name: 'show',
    usage: 'cairn history show <run|node:id> [--agent a] [--json]',
    summary: "Show a run's digest: intent, outcome, changes, decisions, gotchas, next steps",
    options: ['agent'],
  },
  {
    name: 'runs',
    usage: 'cairn history runs [--limit N] [--agent a] [--thread t] [--json]',
    summary: 'List the latest run digests, newest first',
    options: ['limit', 'agent', 'thread'],
  },
];

/**
 * `cairn history`: `signature` prints the error signature of stdin as JSON
 * (with or without --json), for scripts and tests; `patterns`, `pattern`,
 * `approve` and `deprecate` list, show and judge the fix patterns learned
 * from the hooks (docs/HISTORY.md). An unknown id is NOT_FOUND and changes nothing.
 */
export const historyCommand: CommandSpec = {
  name: 'history',
  summary:
    'Task history: error signatures (`history signature` < error), fix patterns (list, show, approve, deprecate, share with the other clones) and run digests (show, runs)',
  usage: [
    'cairn history signature [--tool <name>] [--command <cmd>] < error.txt',
    'cairn history patterns [--state candidate|verified|deprecated] [--json]',
    'cairn history pattern <id> [--json]',
    'cairn history approve <id> [--reason <text>]',
    'cairn history deprecate <id> [--reason <text>]',
    'cairn history share',
    ...DIGEST_USAGE.split(' | '),
  ].join('\n       '),
  options: {
    tool: { type: 'string', description: 'the tool that failed (part of the signature)' },
    command: { type: 'string', description: 'the command that failed (its family is part of it)' },
    state: { type: 'string', description: 'only the patterns in this state' },
    reason: { type: 'string', description: 'why, kept with the pattern' },
    ...DIGEST_OPTIONS,
  },
  positionals: { min: 1, max: 2 },
  subcommands: HISTORY_SUBCOMMANDS,
  async run(context) {
    if (isDigestSubcommand(context.positionals[0])) return runDigestSubcommand(context);
    // The runner refused any other first word (`checkSubcommand`).
    const sub = context.positionals[0] as Subcommand;
    if (!TAKES_ID.has(sub) && context.positionals.length > 1) {
      throw new CairnError('INVALID_INPUT', `\`cairn history ${sub}\` takes no argument`, {
        hint: `usage: ${historyCommand.usage}`,
      });
    }
    if (sub === 'signature') return signature(context);
    if (sub === 'patterns') return patterns(context);
    if (sub === 'share') return share(context);
    return withId(context, sub);
  },
};
