/*
 * How a hook process runs: which harnesses start one per event, how
 * `cairn hook` reads its payload (for the command, commands/hook.ts, and
 * for the hook client that reads it ahead, hook-server/hook-client.ts),
 * and how long the hook client waits for the hook server. Data and small
 * functions only: the launcher (bin.ts) loads this file on every hook, so
 * it imports nothing (the deliveries, which load the harness packages, are
 * in hook-deliveries.ts).
 */

/**
 * The harnesses that start `cairn hook` as a process per event (Claude
 * Code, Codex). For these alone the launcher (bin.ts) loads the hook
 * bundle (hook-main.ts) and offers the event to the hook server, the
 * server runs their hooks (hook-server/hook-protocol.ts), and the bundle
 * carries their deliveries (hook-deliveries.ts). OpenCode and OpenClaw run
 * Cairn inside their own process; a `cairn hook` of theirs goes through
 * the whole CLI (main.cjs). Data only: the launcher reads it on every hook.
 */
export const PROCESS_HOOK_HARNESSES = ['claude-code', 'codex'] as const;

export type ProcessHookHarness = (typeof PROCESS_HOOK_HARNESSES)[number];

export function runsProcessPerHook(harnessId: string | undefined): harnessId is ProcessHookHarness {
  return (PROCESS_HOOK_HARNESSES as readonly (string | undefined)[]).includes(harnessId);
}

/** Hook payloads are small JSON objects; reading stops past this, and nothing is written. */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** How long a hook waits for the harness to close stdin (`CAIRN_HOOK_STDIN_TIMEOUT_MS` overrides). */
export const DEFAULT_STDIN_TIMEOUT_MS = 10_000;

export function stdinTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.CAIRN_HOOK_STDIN_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_STDIN_TIMEOUT_MS;
}

const positiveInteger = (value: string | undefined): number | undefined => {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 ? number : undefined;
};

/** Claude Code ends a SessionEnd hook after 1.5 s unless this variable raises it. */
const CLAUDE_SESSION_END_BUDGET_MS = 1_500;

/**
 * How long a hook client waits for the hook server to answer an event, from
 * its first byte to the reply: below the harness's budget for that hook, so
 * the hook ends before the harness kills it (docs/HOOKS.md).
 * `CAIRN_HOOK_CLIENT_TIMEOUT_MS` overrides it.
 * - Claude Code's SessionEnd: 1 s (Claude Code allows it 1.5 s, or
 *   `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`, less 0.5 s).
 * - Codex's SessionEnd: 2 s (Codex clamps it to 3 s).
 * - Tool events (PostToolUse, PostToolUseFailure): 10 s (Codex gives them 15 s).
 * - Every other event, `cairn lifecycle` included: 20 s (Codex gives them
 *   30 s or more, Claude Code 60 s).
 */
export function clientTimeoutMs(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const override = positiveInteger(env.CAIRN_HOOK_CLIENT_TIMEOUT_MS);
  if (override) return override;
  const [command, harness, event = ''] = argv;
  if (command === 'hook' && event === 'SessionEnd') {
    if (harness === 'codex') return 2_000;
    const budget =
      positiveInteger(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS) ?? CLAUDE_SESSION_END_BUDGET_MS;
    return Math.max(budget - 500, Math.ceil(budget / 2));
  }
  if (command === 'hook' && event.startsWith('PostToolUse')) return 10_000;
  return 20_000;
}

/**
 * The part of the client's deadline it waits for the server's proof of
 * identity, before anything is sent: a quarter, at most 1 s. Past it the
 * event runs in the hook's own process (a stopped or wedged server costs
 * an event that much, and never a double run).
 */
export function proofTimeoutMs(clientMs: number): number {
  return Math.min(1_000, Math.max(1, Math.floor(clientMs / 4)));
}
