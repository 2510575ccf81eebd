import { realpathSync } from 'node:fs';
import {
  CairnError,
  formatError,
  formatErrorLine,
  type HarnessAdapter,
  type HarnessDeliveryResult,
} from '@cairn/core';
import { type Cairn, sqliteDriverProblem } from '@cairn/engine';
import type { CommandContext, CommandOutput, CommandSpec } from '../command';
import { MAX_PAYLOAD_BYTES, stdinTimeoutMs } from '../hook-process';
import { type CliIO, oneLine } from '../io';

export { DEFAULT_STDIN_TIMEOUT_MS, MAX_PAYLOAD_BYTES } from '../hook-process';

function parsePayload(text: string | undefined): Record<string, unknown> {
  if (!text?.trim()) {
    throw new CairnError('INVALID_INPUT', 'No JSON payload on stdin', {
      hint: 'the harness pipes one JSON object to its hook command',
    });
  }
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) {
    throw new CairnError('INVALID_INPUT', 'The hook payload is larger than 8 MB', {
      hint: 'nothing was written',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CairnError(
      'INVALID_INPUT',
      `The hook payload is not JSON: ${(error as Error).message}`,
      {
        hint: 'nothing was written',
      },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CairnError('INVALID_INPUT', 'The hook payload must be a JSON object', {
      hint: 'nothing was written',
    });
  }
  return value as Record<string, unknown>;
}

/** Why an event was skipped (in the JSON reply): no project, and none is created. */
const NO_PROJECT = 'no project: no .cairn/ above the session cwd, or --root is not a folder';

export interface HookCommandOptions {
  /** The delivery of a harness id (INVALID_INPUT for an unknown one). */
  loadDelivery: (harnessId: string) => Promise<HarnessAdapter['deliver']>;
}

/**
 * What the user should know before the event runs: settings ignored from
 * an untrusted project config (the hook still runs), and a missing SQLite
 * driver (the lifecycle cannot run: say once what fixes it rather than
 * inject nothing quietly).
 */
function warnBeforeEvent(io: CliIO, label: string, cairn: Cairn): void {
  for (const item of cairn.resolved.trust.ignored) {
    io.stderr(
      `${label}: warning: ignored "${item.key}" from the untrusted project config (${item.reason}); run \`cairn trust\` to allow it\n`,
    );
  }
  const driver = driverProblem();
  if (driver) io.stderr(`${oneLine(`${label}: warning: ${formatErrorLine(driver)}`)}\n`);
}

/**
 * A SQLite driver that loaded stays loaded for the process (the hook
 * server's every later event): asked until it loads, then not again. One
 * that failed is asked again, since a rebuilt addon may load next time.
 */
let driverLoaded = false;

function driverProblem(): CairnError | undefined {
  if (driverLoaded) return undefined;
  const problem = sqliteDriverProblem();
  driverLoaded = problem === undefined;
  return problem;
}

/**
 * Some hooks reply with plain text (Claude Code's PreCompact appends stdout
 * to the compaction instructions); everything else is a JSON object.
 */
function hookReply(result: HarnessDeliveryResult): CommandOutput {
  const { output } = result;
  const text =
    output === undefined ? '' : typeof output === 'string' ? output : JSON.stringify(output);
  return { json: { ok: true, ...result }, text };
}

/** One event: the payload read, its project found and opened, the delivery run through the host. */
async function runHookEvent(
  { loadDelivery }: HookCommandOptions,
  { io, values, positionals, host }: CommandContext,
): Promise<CommandOutput> {
  const [harnessId, hookEvent] = positionals as [string, string];
  if (!host) throw new CairnError('INTERNAL', 'No lifecycle host in this bundle');
  const label = `cairn hook ${harnessId} ${hookEvent}`;
  const deliver = await loadDelivery(harnessId);
  const stdin = await io.readStdin({
    maxBytes: MAX_PAYLOAD_BYTES,
    timeoutMs: stdinTimeoutMs(io.env),
  });
  const payload = parsePayload(stdin);
  const start = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : io.cwd;
  const rootFlag = typeof values.root === 'string' ? values.root : undefined;
  const root = host.projectRoot(start, rootFlag, io.cwd);
  if (!root) return { json: { ok: true, skipped: NO_PROJECT }, text: '' };
  const cairn = await host.open(root, io.env);
  warnBeforeEvent(io, label, cairn);
  const sessionKey = typeof payload.session_id === 'string' ? payload.session_id : undefined;
  // A refused payload (INVALID_INPUT) dropped the event: the host logs it, and `cairn doctor` says so.
  const outcome = await host.deliver(
    cairn,
    { name: `${harnessId} ${hookEvent}`, ...(sessionKey ? { sessionKey } : {}) },
    (project) => deliver({ hookEvent, payload }, { lifecycle: project.lifecycle, env: io.env }),
  );
  if (!outcome.ok) throw outcome.error;
  return hookReply(outcome.value);
}

/**
 * `cairn hook`: the whole CLI loads the harness adapters (harnesses.ts),
 * the hook bundle only the deliveries of the harnesses that start a process
 * per hook (hook-deliveries.ts). Either way the project is found, opened,
 * and closed or kept by the lifecycle host the bundle runs commands with
 * (cli.ts, hook-main.ts).
 */
export const createHookCommand = (options: HookCommandOptions): CommandSpec => ({
  name: 'hook',
  summary:
    'Run a harness hook: payload JSON on stdin, the harness reply on stdout (never fails the agent)',
  usage: 'cairn hook <harness> <hook-event> [--root <dir>] < payload.json',
  options: {},
  positionals: { min: 2, max: 2 },
  checksRoot: true,
  async run(context) {
    // Fail-open: whatever happens, the agent gets exit 0; problems go to
    // stderr (shown by harnesses in verbose modes) and, once a project is
    // known, to .cairn/state/lifecycle-errors.jsonl through the engine.
    try {
      return await runHookEvent(options, context);
    } catch (error) {
      const [harnessId, hookEvent] = context.positionals;
      const line = `cairn hook ${harnessId} ${hookEvent}: ${formatErrorLine(error)}`;
      context.io.stderr(`${oneLine(line)}\n`);
      const code = CairnError.isInstance(error) ? error.code : 'INTERNAL';
      return { json: { ok: false, error: { code, message: formatError(error) } }, text: '' };
    }
  },
});

/** How a harness should start this very CLI: this Node and this bin.cjs, by absolute path. */
export function currentCairnCommand(): string[] {
  const script = process.argv[1];
  return script ? [process.execPath, realpathSync(script)] : ['cairn'];
}
