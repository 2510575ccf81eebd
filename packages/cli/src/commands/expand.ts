import { CairnError } from '@cairn/core';
import type { Cairn, LineageAgent, NodeExpansion } from '@cairn/engine';
import type { CommandSpec } from '../command';
import { stringFlag } from './text-input';

/** What `--full` reads at most: the lineage's own page limit, every character of each entry. */
const FULL = { maxEntries: 10_000, maxEntryChars: Number.MAX_SAFE_INTEGER };
/** Characters of an entry shown on its one line without `--full`. */
const LINE_CHARS = 160;

const agentList = (agents: readonly LineageAgent[]) =>
  agents.map((a) => `${a.agentId} (${a.sessions} sessions, ${a.nodes} nodes)`).join(', ');

/**
 * `--agent`, or the project's only agent. Node ids belong to one agent:
 * without the flag, where several are known, it names them all.
 */
function agentOf(cairn: Cairn, flag: string | undefined): string {
  if (flag) return flag;
  const agents = cairn.lineageAgents();
  if (agents.length === 1) return agents[0]!.agentId;
  throw new CairnError(
    'INVALID_INPUT',
    'expand needs --agent <agentId>: node ids belong to one agent',
    {
      hint: agents.length
        ? `the agents this project knows: ${agentList(agents)}; e.g. --agent ${agents[0]!.agentId}`
        : 'this project has no history yet: the hooks of an installed harness record it (`cairn install <harness>`)',
      details: { agents },
    },
  );
}

function transcriptLines(expanded: NodeExpansion, full: boolean): string[] {
  const { transcript } = expanded;
  if (!transcript) return ['transcript: -'];
  const lines = [
    `transcript: ${transcript.sessionKey}${transcript.harness ? ` (${transcript.harness})` : ''}, ${transcript.entries.length} of ${transcript.totalEntries} entries`,
  ];
  for (const entry of transcript.entries) {
    const who = entry.toolName ? `${entry.role} ${entry.toolName}` : entry.role;
    const head = `  #${entry.seq} ${who}  ${entry.at}`;
    if (full) {
      lines.push(head, ...entry.text.split('\n').map((line) => `    ${line}`));
      continue;
    }
    const text = entry.text.replace(/\s+/g, ' ').trim();
    lines.push(`${head}  ${text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS - 1)}…` : text}`);
  }
  if (
    transcript.truncated ||
    (!full && transcript.entries.some((e) => e.text.length > LINE_CHARS))
  ) {
    lines.push(
      full
        ? '  (more entries than one page: `cairn ui` pages through them)'
        : '  (--full prints every entry whole)',
    );
  }
  return lines;
}

export const expandCommand: CommandSpec = {
  name: 'expand',
  summary:
    'Drill into a temporal node: lineage, siblings, thread, linked units and its transcript entries',
  usage: 'cairn expand <node:id> [--agent <agentId>] [--full] [--json]',
  details: [
    'The id may be a unique start of one (node:1a2b3c4d, or 1a2b3c4d). --agent may be left',
    'out when the project knows one agent; otherwise the error lists the agents it knows.',
    'Transcript entries print one line each; --full prints each whole (secrets redacted).',
  ].join('\n'),
  options: {
    agent: { type: 'string', description: 'the agent the node belongs to' },
    full: { type: 'boolean', description: 'print every transcript entry whole' },
  },
  positionals: { min: 1, max: 1 },
  async run({ open, values, positionals }) {
    const cairn = await open();
    try {
      const agent = agentOf(cairn, stringFlag(values.agent));
      const full = values.full === true;
      const expanded = cairn.expand(positionals[0]!, agent, full ? FULL : {});
      const { node } = expanded;
      const lines = [
        `${node.id}  ${node.kind}  agent ${agent}  thread ${node.threadKey}  ${node.startAt} → ${node.endAt}  (${node.source})`,
        '',
        node.text,
        '',
        `parents: ${expanded.parents.map((p) => p.id).join(', ') || '-'}`,
        `children: ${expanded.children.map((c) => c.id).join(', ') || '-'}`,
        `siblings: ${expanded.siblings.map((s) => s.id).join(', ') || '-'}`,
        `linked units: ${expanded.linkedUnits.join(', ') || '-'}`,
        `redacted: ${expanded.redacted.map((r) => `${r.kind} x${r.count}`).join(', ') || '-'}`,
        ...transcriptLines(expanded, full),
      ];
      return { json: { ok: true, agentId: agent, ...expanded }, text: lines.join('\n') };
    } finally {
      cairn.closeWorking();
    }
  },
};
