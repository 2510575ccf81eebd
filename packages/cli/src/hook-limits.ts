/*
 * How `cairn hook` reads its payload, for the command (commands/hook.ts)
 * and for the hook client that reads it ahead (hook-server/hook-client.ts).
 */

/** Hook payloads are small JSON objects; reading stops past this, and nothing is written. */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** How long a hook waits for the harness to close stdin (`CAIRN_HOOK_STDIN_TIMEOUT_MS` overrides). */
export const DEFAULT_STDIN_TIMEOUT_MS = 10_000;

export function stdinTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.CAIRN_HOOK_STDIN_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_STDIN_TIMEOUT_MS;
}
