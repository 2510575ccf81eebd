import {
  CairnError,
  LIFECYCLE_EVENT_NAMES,
  LIFECYCLE_EVENTS,
  lifecycleEventByCliName,
} from '@cairn/core';
import type { CommandSpec, SubcommandSpec } from '../command';
import { stringFlag } from './text-input';

export const threadsCommand: CommandSpec = {
  name: 'threads',
  summary: 'List thread heads (Tier 2), most recently updated first',
  usage: 'cairn threads [--agent <agentId>] [--json]',
  options: { agent: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  async run({ open, values }) {
    const threads = (await open()).threads(stringFlag(values.agent));
    const text = threads
      .map(
        (t) =>
          `${t.threadKey}  (${t.agentId}, ${t.sessions} sessions, ${t.updatedAt})\n  ${t.status || '(no status)'}${t.nextAction ? `\n  next: ${t.nextAction}` : ''}`,
      )
      .join('\n');
    return { json: { ok: true, threads }, text: text || '(no threads yet)' };
  },
};

export const headCommand: CommandSpec = {
  name: 'head',
  summary:
    "Print this clone's head (its threads, next actions, constraints), the team head of MEMORY.md with --team, or a thread head with --agent and --thread",
  usage: 'cairn head [--team | --agent <agentId> --thread <key>] [--json]',
  options: { agent: { type: 'string' }, thread: { type: 'string' }, team: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  async run({ open, values }) {
    const agent = stringFlag(values.agent);
    const thread = stringFlag(values.thread);
    if (agent || thread) {
      if (!agent || !thread)
        throw new CairnError('INVALID_INPUT', 'a thread head needs both --agent and --thread');
      const head = (await open()).threadHead(agent, thread);
      return { json: { ok: true, ...head }, text: head.markdown };
    }
    const cairn = await open();
    const view = await cairn.readHead();
    const local = values.team === true ? undefined : cairn.localHead();
    return {
      json: { ok: true, head: view.head, local: local ?? '', exists: view.exists },
      text: local || view.head || '(the managed head is empty)',
    };
  },
};

const CLI_NAMES = LIFECYCLE_EVENT_NAMES.map((event) => LIFECYCLE_EVENTS[event].cliName);

/** What each event does and answers (docs/HOOKS.md has the payloads). */
const EVENT_SUMMARIES: Record<(typeof LIFECYCLE_EVENT_NAMES)[number], string> = {
  sessionStart: 'Record the session and its thread; answers the session-start pack to inject',
  userPromptSubmit: 'Append the prompt to the transcript; answers the prompt-submit pack to inject',
  toolUse: 'Append the tool call; after a failure with a known fix, answers that fix',
  preCompaction: 'Record the compaction request; answers the heads for the compaction prompt',
  compactionComplete: 'Store the compaction node and refresh the heads; answers its nodeId',
  sessionEnd:
    "Store the session's summary and run digest and refresh the heads; answers the nodeId",
};

const EVENT_SUBCOMMANDS: SubcommandSpec[] = LIFECYCLE_EVENT_NAMES.map((event) => ({
  name: LIFECYCLE_EVENTS[event].cliName,
  usage: `cairn lifecycle ${LIFECYCLE_EVENTS[event].cliName} [--root <dir>] < payload.json`,
  summary: EVENT_SUMMARIES[event],
}));

async function readPayload(text: string | undefined): Promise<unknown> {
  if (!text?.trim())
    throw new CairnError('INVALID_INPUT', 'No JSON payload on stdin', {
      hint: 'pipe the event payload as one JSON object',
    });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CairnError(
      'INVALID_INPUT',
      `The payload is not valid JSON: ${(error as Error).message}`,
      {
        hint: 'pipe one JSON object on stdin; nothing was written',
      },
    );
  }
}

export const lifecycleCommand: CommandSpec = {
  name: 'lifecycle',
  summary: `Run a lifecycle event with a JSON payload on stdin (${CLI_NAMES.join(', ')})`,
  usage: 'cairn lifecycle <event> [--root <dir>] < payload.json   (prints the result as JSON)',
  options: {},
  positionals: { min: 1, max: 1 },
  subcommands: EVENT_SUBCOMMANDS,
  // A harness's plugin sends its events here from any workspace, as hooks do: the first makes .cairn/.
  opensUninitialized: true,
  async run({ open, io, positionals }) {
    // The runner refused an unknown event name (`checkSubcommand`).
    const event = lifecycleEventByCliName(positionals[0]!)!;
    const payload = await readPayload(await io.readStdin());
    // The runner lets the project go afterwards (its host closes it, or keeps it in a server).
    const cairn = await open();
    // The event's schema parses the payload inside the call (INVALID_INPUT, nothing written).
    const call = cairn.lifecycle[event] as (input: unknown) => Promise<object>;
    const result = await call(payload);
    // Scripts and hooks read this: the output is JSON with or without --json.
    const json = { ok: true, ...result };
    return { json, text: JSON.stringify(json) };
  },
};
