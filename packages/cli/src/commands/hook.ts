import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CAIRN_DIR, CairnError, formatError, formatErrorLine } from '@cairn/core';
import {
  type Cairn,
  findProjectRoot,
  type HarnessAdapter,
  loadConfiguredPackages,
  logLifecycleFailure,
  type OpenCairnOptions,
  openCairn,
  sqliteDriverProblem,
} from '@cairn/engine';
import type { CommandSpec } from '../command';
import { MAX_PAYLOAD_BYTES, stdinTimeoutMs } from '../hook-limits';
import { oneLine } from '../io';

export { DEFAULT_STDIN_TIMEOUT_MS, MAX_PAYLOAD_BYTES } from '../hook-limits';

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

/** A hook event the lifecycle refused, in the project's lifecycle log (best effort). */
function logRefusal(root: string, event: string, payload: Record<string, unknown>, error: unknown) {
  const sessionKey = typeof payload.session_id === 'string' ? payload.session_id.slice(0, 256) : '';
  logLifecycleFailure(root, {
    at: new Date().toISOString(),
    event,
    ...(sessionKey ? { sessionKey } : {}),
    code: CairnError.isInstance(error) ? error.code : 'INTERNAL',
    message: formatError(error).slice(0, 2000),
  });
}

/** `--root`, else the nearest folder with .cairn/ above the payload's cwd; undefined when none. */
function projectRootFor(rootFlag: unknown, payload: Record<string, unknown>, cwd: string) {
  if (typeof rootFlag === 'string') {
    // A root that is gone (a deleted checkout) is no project: never create it.
    const root = resolve(cwd, rootFlag);
    return statSync(root, { throwIfNoEntry: false })?.isDirectory() ? root : undefined;
  }
  const start = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : cwd;
  const root = findProjectRoot(start);
  return existsSync(join(root, CAIRN_DIR)) ? root : undefined;
}

export interface HookCommandOptions {
  /** The delivery of a harness id (INVALID_INPUT for an unknown one). */
  loadDelivery: (harnessId: string) => Promise<HarnessAdapter['deliver']>;
  /** Opens the project the payload names (default openCairn). */
  open?: (root: string, options: OpenCairnOptions) => Cairn;
}

/**
 * `cairn hook`: the whole CLI loads the harness adapters (harnesses.ts),
 * the hook bundle only the deliveries of the harnesses that start a process
 * per hook (hook-deliveries.ts), and opens projects for a process that
 * exits right after (hook-main.ts).
 */
export const createHookCommand = ({
  loadDelivery,
  open = openCairn,
}: HookCommandOptions): CommandSpec => ({
  name: 'hook',
  summary:
    'Run a harness hook: payload JSON on stdin, the harness reply on stdout (never fails the agent)',
  usage: 'cairn hook <harness> <hook-event> [--root <dir>] < payload.json',
  options: {},
  positionals: { min: 2, max: 2 },
  checksRoot: true,
  async run({ io, values, positionals }) {
    const [harnessId, hookEvent] = positionals as [string, string];
    // Fail-open: whatever happens, the agent gets exit 0; problems go to
    // stderr (shown by harnesses in verbose modes) and, once a project is
    // known, to .cairn/state/lifecycle-errors.jsonl through the engine.
    try {
      const deliver = await loadDelivery(harnessId);
      const stdin = await io.readStdin({
        maxBytes: MAX_PAYLOAD_BYTES,
        timeoutMs: stdinTimeoutMs(io.env),
      });
      const payload = parsePayload(stdin);
      const root = projectRootFor(values.root, payload, io.cwd);
      if (!root)
        return {
          json: {
            ok: true,
            skipped: 'no project: no .cairn/ above the session cwd, or --root is not a folder',
          },
          text: '',
        };
      const resolvedSettings = await loadConfiguredPackages(root, { env: io.env });
      const cairn = open(root, { env: io.env, resolvedSettings });
      // Settings ignored from an untrusted project config: said on stderr, the hook still runs.
      for (const item of cairn.resolved.trust.ignored) {
        io.stderr(
          `cairn hook ${harnessId} ${hookEvent}: warning: ignored "${item.key}" from the untrusted project config (${item.reason}); run \`cairn trust\` to allow it\n`,
        );
      }
      // No SQLite driver (no better-sqlite3 build, Node < 24): the lifecycle
      // cannot run, so say once what fixes it rather than inject nothing quietly.
      const driver = sqliteDriverProblem();
      if (driver) {
        io.stderr(
          `${oneLine(`cairn hook ${harnessId} ${hookEvent}: warning: ${formatErrorLine(driver)}`)}\n`,
        );
      }
      try {
        const result = await deliver(
          { hookEvent, payload },
          { lifecycle: cairn.lifecycle, env: io.env },
        ).catch((error: unknown) => {
          // A refused payload (INVALID_INPUT) dropped the event: `cairn doctor` says so.
          logRefusal(root, `${harnessId} ${hookEvent}`, payload, error);
          throw error;
        });
        // Some hooks reply with plain text (Claude Code's PreCompact appends stdout to the
        // compaction instructions); everything else is a JSON object.
        const { output } = result;
        const text =
          output === undefined ? '' : typeof output === 'string' ? output : JSON.stringify(output);
        return { json: { ok: true, ...result }, text };
      } finally {
        cairn.closeWorking();
      }
    } catch (error) {
      io.stderr(`${oneLine(`cairn hook ${harnessId} ${hookEvent}: ${formatErrorLine(error)}`)}\n`);
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
