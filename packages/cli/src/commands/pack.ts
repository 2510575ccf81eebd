import { CairnError } from '@cairn/core';
import {
  type Cairn,
  type ContextPack,
  describeEvidence,
  describeProvenance,
  type InjectionReceipt,
  isPackProfileName,
  lastPackReceipts,
  loadTokenizer,
  PACK_PLANES,
  PACK_PROFILE_NAMES,
  type PackPlane,
  type PackProfileName,
  retrieveContextPack,
} from '@cairn/engine';
import type { CommandSpec } from '../command';
import { stringFlag } from './text-input';

/** The agent `cairn pack` asks for when --agent is not given. */
export const PACK_DEFAULT_AGENT = 'cli';

function budgetFlag(value: unknown): number | undefined {
  const text = stringFlag(value);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) {
    throw new CairnError(
      'INVALID_INPUT',
      `--budget must be a whole number of tokens, not "${text}"`,
      {
        hint: 'e.g. --budget 2000',
      },
    );
  }
  return Number(text);
}

function planesFlag(value: unknown): PackPlane[] | undefined {
  const raw = (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
  if (raw.length === 0) return undefined;
  const planes = raw.flatMap((v) => v.split(',')).map((v) => v.trim());
  for (const plane of planes) {
    if (!PACK_PLANES.includes(plane as PackPlane)) {
      throw new CairnError('INVALID_INPUT', `Unknown plane "${plane}"`, {
        hint: `use one of ${PACK_PLANES.join(', ')}`,
      });
    }
  }
  return planes as PackPlane[];
}

function profileFlag(value: unknown): PackProfileName | undefined {
  const text = stringFlag(value);
  if (text === undefined) return undefined;
  if (!isPackProfileName(text)) {
    throw new CairnError('INVALID_INPUT', `Unknown profile "${text}"`, {
      hint: `use one of ${PACK_PROFILE_NAMES.join(', ')}`,
    });
  }
  return text;
}

/** The session `--profile` packs for: `--session`, else one no event has started (nothing shown yet). */
export const PACK_PREVIEW_SESSION = 'cairn-pack-preview';

/**
 * `cairn pack --profile <name>`: exactly what that profile's hook would
 * inject for the session now (the estimate counts, as on the hook path),
 * receipt line included; nothing is claimed or stored. `--json` gives the pack.
 */
async function profileOutput(
  cairn: Cairn,
  profile: PackProfileName,
  values: Record<string, unknown>,
  query: string,
) {
  for (const flag of ['budget', 'plane', 'related-thread'] as const) {
    if (values[flag] !== undefined) {
      throw new CairnError('INVALID_INPUT', `--${flag} does not go with --profile`, {
        hint: 'a profile packs with the settings a hook uses: leave --profile out to choose planes or a budget',
      });
    }
  }
  const thread = stringFlag(values.thread);
  const pack = await cairn.previewPack({
    profile,
    agentId: stringFlag(values.agent) ?? PACK_DEFAULT_AGENT,
    sessionKey: stringFlag(values.session) ?? PACK_PREVIEW_SESSION,
    ...(thread ? { threadKey: thread } : {}),
    ...(query ? { input: query } : {}),
  });
  return { json: { ok: true, pack }, text: pack.text.replace(/\n$/, '') };
}

/** `--related-thread` (repeatable, or comma-separated): only with the thread it relates to. */
function relatedFlag(value: unknown, thread: string | undefined): string[] | undefined {
  const raw = (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
  const threads = raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (threads.length === 0) return undefined;
  if (!thread) {
    throw new CairnError('INVALID_INPUT', '--related-thread needs --thread', {
      hint: 'name the thread the others relate to: cairn pack "<query>" --thread t --related-thread t2',
    });
  }
  return threads;
}

const oneLine = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The runs a fix pattern rests on (run, agent, role, tool events), when the item has them. */
function evidenceLines(provenance: ContextPack['items'][number]['provenance']): string[] {
  const evidence = describeEvidence(provenance);
  return evidence ? [`    evidence: ${evidence}`] : [];
}

/** The human receipt: planes, items, what was left out and why, the budget. */
export function renderPackReceipt(pack: ContextPack): string {
  const lines = [
    `Context pack for "${oneLine(pack.query, 80)}" (agent ${pack.agentId}${pack.threadKey ? `, thread ${pack.threadKey}` : ''})`,
    '',
    'Planes:',
    ...pack.planes.map(
      (p) =>
        `  ${p.plane.padEnd(10)} ${p.status.padEnd(6)} ${String(p.candidates).padStart(3)} candidates ${String(p.ms).padStart(5)} ms${p.reason ? `  ${p.reason}` : ''}`,
    ),
    '',
    `Items (${pack.items.length}):`,
    ...(pack.items.length ? [] : ['  (none)']),
    ...pack.items.flatMap((item) => [
      `  [${item.plane}] ${item.trustClass}, ${item.tokenCost} tokens, ${describeProvenance(item.provenance)}${item.redacted.length ? `, redacted: ${item.redacted.join(', ')}` : ''}`,
      `    ${oneLine(item.text)}`,
      `    why: ${item.why}`,
      ...evidenceLines(item.provenance),
    ]),
    '',
    `Excluded (${pack.excluded.length}):`,
    ...(pack.excluded.length ? [] : ['  (none)']),
    ...pack.excluded.map(
      (e) =>
        `  [${e.plane}] ${e.id}: ${e.reason}${e.duplicateOf ? ` of ${e.duplicateOf}` : ''}${e.tokenCost ? ` (${e.tokenCost} tokens)` : ''}`,
    ),
    '',
    `Budget: ${pack.budget.used} of ${pack.budget.total} tokens used (${pack.budget.counter}; frame ${pack.budget.frame})`,
    ...pack.budget.planes.map(
      (p) =>
        `  ${p.plane.padEnd(10)} share ${p.share}${p.carriedIn ? ` + ${p.carriedIn} carried` : ''}, used ${p.used}`,
    ),
  ];
  return lines.join('\n');
}

/** The stored receipt of the last injection, in the same format as a pack, under a line saying when and where. */
export function renderLastReceipt(receipt: InjectionReceipt | undefined): string {
  if (!receipt) {
    return 'No injection recorded yet: the hooks store a receipt each time they inject a pack.';
  }
  const head = [
    `Last injection: ${receipt.event} at ${receipt.at}, receipt ${receipt.receiptId}`,
    `  session ${receipt.sessionKey} (agent ${receipt.agentId}, thread ${receipt.threadKey}, epoch ${receipt.epoch}); ${receipt.tokens} of ${receipt.budgetTokens} tokens injected`,
    '',
  ];
  return [...head, renderPackReceipt(receipt.pack)].join('\n');
}

function lastOutput(root: string, session: string | undefined) {
  const [receipt] = lastPackReceipts(root, session === undefined ? {} : { sessionKey: session });
  return { json: { ok: true, receipt: receipt ?? null }, text: renderLastReceipt(receipt) };
}

/**
 * `cairn pack "<query>"`: the context pack Cairn would inject for the
 * query, with its receipt (seed 004 §7). Costs come from the real
 * tokenizer (this is not the hook path).
 */
export const packCommand: CommandSpec = {
  name: 'pack',
  summary:
    'Show the context pack for a query (or, with --last, what the hooks injected last): items, what was left out and why, the budget',
  usage:
    'cairn pack "<query>" [--budget N] [--plane planning|history|long-term|documents]... [--agent a] [--thread t [--related-thread t2]...] [--json]\n       cairn pack --profile session-start|prompt-submit|post-tool|pre-compaction|after-compaction ["<prompt>"] [--agent a] [--session s] [--thread t] [--json]\n       cairn pack --last [--session <key>] [--json]',
  options: {
    profile: { type: 'string' },
    budget: { type: 'string' },
    plane: { type: 'string', multiple: true },
    agent: { type: 'string' },
    thread: { type: 'string' },
    'related-thread': { type: 'string', multiple: true },
    last: { type: 'boolean' },
    session: { type: 'string' },
  },
  positionals: { min: 0, max: 64 },
  async run({ open, root, positionals, values }) {
    if (values.last === true) {
      if (positionals.length > 0) {
        throw new CairnError('INVALID_INPUT', '--last takes no query', {
          hint: 'cairn pack --last [--session <key>]',
        });
      }
      return lastOutput(root, stringFlag(values.session));
    }
    const profile = profileFlag(values.profile);
    if (profile) return profileOutput(await open(), profile, values, positionals.join(' '));
    if (positionals.length === 0) {
      throw new CairnError('INVALID_INPUT', 'cairn pack needs a query, or --last', {
        hint: 'cairn pack "what am I working on" or cairn pack --last',
      });
    }
    const budgetTokens = budgetFlag(values.budget);
    const planes = planesFlag(values.plane);
    const thread = stringFlag(values.thread);
    const related = relatedFlag(values['related-thread'], thread);
    const cairn = await open();
    const pack = await retrieveContextPack(
      {
        query: positionals.join(' '),
        agentId: stringFlag(values.agent) ?? PACK_DEFAULT_AGENT,
        ...(thread ? { threadKey: thread } : {}),
        ...(related ? { relatedThreads: related } : {}),
        ...(budgetTokens === undefined ? {} : { budgetTokens }),
        ...(planes ? { planes } : {}),
      },
      {
        rootDir: cairn.rootDir,
        settings: cairn.settings,
        search: (request) => cairn.search(request),
        recall: (query) => cairn.recall(query),
        counter: await loadTokenizer(),
      },
    );
    return { json: { ok: true, pack }, text: renderPackReceipt(pack) };
  },
};
