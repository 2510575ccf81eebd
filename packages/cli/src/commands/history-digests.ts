import { CairnError } from '@cairn/core';
import {
  type Cairn,
  findRunDigest,
  recentRunDigests,
  renderRunDigest,
  type StoredRunDigest,
} from '@cairn/engine';
import type { CommandContext, CommandOutput, OptionSpec } from '../command';
import { stringFlag } from './text-input';

/**
 * `cairn history show <run>` and `cairn history runs`: the run digests
 * (docs/HISTORY.md). history.ts dispatches here, so the pattern commands
 * that live there and these stay apart.
 */

export const DIGEST_SUBCOMMANDS = ['show', 'runs'] as const;
export const DIGEST_OPTIONS: OptionSpec = {
  agent: { type: 'string', description: 'the agent whose runs to read (default: every agent)' },
  thread: { type: 'string', description: 'only the runs of this thread' },
  limit: { type: 'string', number: 'integer', description: 'runs listed at most (default 20)' },
};
export const DIGEST_USAGE =
  'cairn history show <run|node:id> [--agent a] [--json] | cairn history runs [--limit N] [--agent a] [--thread t] [--json]';

export const isDigestSubcommand = (sub: string | undefined): boolean =>
  (DIGEST_SUBCOMMANDS as readonly string[]).includes(sub ?? '');

/** The agents to look in: --agent, else every agent with a thread. */
function agentsOf(cairn: Cairn, agent: string | undefined): string[] {
  if (agent !== undefined) return [agent];
  return [...new Set(cairn.threads().map((thread) => thread.agentId))];
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return 20;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
    throw new CairnError(
      'INVALID_INPUT',
      `--limit must be a whole number from 1 to 500, not "${raw}"`,
    );
  }
  return limit;
}

function runLine({ digest, nodeId }: StoredRunDigest): string {
  const gotchas = digest.gotchas.length ? `, ${digest.gotchas.length} gotcha(s)` : '';
  const commits = digest.changes.commits.length
    ? `, ${digest.changes.commits.length} commit(s)`
    : '';
  return `${digest.runId}  ${digest.outcome}  ${digest.endedAt}  (${digest.agentId}, ${digest.threadKey}${commits}${gotchas})\n  ${digest.intent}\n  ${nodeId}`;
}

export async function runDigestSubcommand(context: CommandContext): Promise<CommandOutput> {
  const { open, positionals, values, root } = context;
  const sub = positionals[0];
  const agent = stringFlag(values.agent);
  const cairn = await open();
  try {
    if (sub === 'show') {
      const run = positionals[1];
      if (!run) {
        throw new CairnError('INVALID_INPUT', 'history show needs a run id', {
          hint: 'list runs with `cairn history runs`',
        });
      }
      const stored = findRunDigest(root, run, agentsOf(cairn, agent));
      return {
        json: { ok: true, nodeId: stored.nodeId, digest: stored.digest, redacted: stored.redacted },
        text: renderRunDigest(stored.digest),
      };
    }
    const thread = stringFlag(values.thread);
    const runs = recentRunDigests(root, {
      agentIds: agentsOf(cairn, agent),
      limit: parseLimit(stringFlag(values.limit)),
      ...(thread ? { threadKey: thread } : {}),
    });
    return {
      json: {
        ok: true,
        runs: runs.map(({ nodeId, digest }) => ({
          nodeId,
          runId: digest.runId,
          agentId: digest.agentId,
          threadKey: digest.threadKey,
          outcome: digest.outcome,
          intent: digest.intent,
          startedAt: digest.startedAt,
          endedAt: digest.endedAt,
          commits: digest.changes.commits.length,
          gotchas: digest.gotchas.length,
        })),
      },
      text: runs.map(runLine).join('\n') || '(no run digests yet)',
    };
  } finally {
    cairn.closeWorking();
  }
}
