import {
  CairnError,
  LIFECYCLE_EVENT_NAMES,
  LIFECYCLE_EVENTS,
  lifecycleEventByCliName,
} from '@cairn/core';
import type { CommandSpec } from '../command';
import { stringFlag } from './text-input';

export const expandCommand: CommandSpec = {
  name: 'expand',
  summary: 'Drill into a temporal node: lineage, siblings, thread, linked units, transcript',
  usage: 'cairn expand <node:id> --agent <agentId> [--json]',
  options: { agent: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run({ open, values, positionals }) {
    const agent = stringFlag(values.agent);
    if (!agent)
      throw new CairnError('INVALID_INPUT', 'expand needs --agent', {
        hint: 'node ids are scoped to one agent',
      });
    const cairn = open();
    try {
      const expanded = cairn.expand(positionals[0]!, agent);
      const { node } = expanded;
      const lines = [
        `${node.id}  ${node.kind}  thread ${node.threadKey}  ${node.startAt} → ${node.endAt}  (${node.source})`,
        '',
        node.text,
        '',
        `parents: ${expanded.parents.map((p) => p.id).join(', ') || '-'}`,
        `children: ${expanded.children.map((c) => c.id).join(', ') || '-'}`,
        `siblings: ${expanded.siblings.map((s) => s.id).join(', ') || '-'}`,
        `linked units: ${expanded.linkedUnits.join(', ') || '-'}`,
        `transcript: ${expanded.transcript ? `${expanded.transcript.entries.length} entries of ${expanded.transcript.sessionKey}` : '-'}`,
        `redacted: ${expanded.redacted.map((r) => `${r.kind} x${r.count}`).join(', ') || '-'}`,
      ];
      return { json: { ok: true, ...expanded }, text: lines.join('\n') };
    } finally {
      cairn.closeWorking();
    }
  },
};

export const threadsCommand: CommandSpec = {
  name: 'threads',
  summary: 'List thread heads (Tier 2), most recently updated first',
  usage: 'cairn threads [--agent <agentId>] [--json]',
  options: { agent: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  async run({ open, values }) {
    const threads = open().threads(stringFlag(values.agent));
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
  summary: 'Print the managed head of MEMORY.md, or a thread head with --agent and --thread',
  usage: 'cairn head [--agent <agentId> --thread <key>] [--json]',
  options: { agent: { type: 'string' }, thread: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  async run({ open, values }) {
    const agent = stringFlag(values.agent);
    const thread = stringFlag(values.thread);
    if (agent || thread) {
      if (!agent || !thread)
        throw new CairnError('INVALID_INPUT', 'a thread head needs both --agent and --thread');
      const head = open().threadHead(agent, thread);
      return { json: { ok: true, ...head }, text: head.markdown };
    }
    const view = await open().readHead();
    return {
      json: { ok: true, head: view.head, exists: view.exists },
      text: view.head || '(the managed head is empty)',
    };
  },
};

const CLI_NAMES = LIFECYCLE_EVENT_NAMES.map((event) => LIFECYCLE_EVENTS[event].cliName);

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
  async run({ open, io, positionals }) {
    const event = lifecycleEventByCliName(positionals[0]!);
    if (!event) {
      throw new CairnError('INVALID_INPUT', `Unknown lifecycle event "${positionals[0]}"`, {
        hint: `use one of ${CLI_NAMES.join(', ')}`,
      });
    }
    const payload = await readPayload(await io.readStdin());
    const cairn = open();
    try {
      // The event's schema parses the payload inside the call (INVALID_INPUT, nothing written).
      const call = cairn.lifecycle[event] as (input: unknown) => Promise<object>;
      const result = await call(payload);
      // Scripts and hooks read this: the output is JSON with or without --json.
      const json = { ok: true, ...result };
      return { json, text: JSON.stringify(json) };
    } finally {
      cairn.closeWorking();
    }
  },
};
