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
