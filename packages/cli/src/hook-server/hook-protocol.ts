import type { PrereadStdin } from '../stdin-read';

/*
 * One event handed from a hook process (the client, in the launcher) to the
 * hook server over its Unix socket: one JSON line each way. The request is
 * what the process would have run with; the reply what it would have
 * printed and its exit code.
 */

export const HOOK_PROTOCOL_VERSION = 1;

export interface HookRequest {
  v: typeof HOOK_PROTOCOL_VERSION;
  /** The command line after `cairn`: `hook <harness> <event> …` or `lifecycle <event> …`. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: PrereadStdin;
}

export type HookReply =
  | {
      v: typeof HOOK_PROTOCOL_VERSION;
      stdout: string;
      stderr: string;
      code: number;
      /** The server's process id (tests ask the client to say who answered). */
      pid: number;
    }
  /** The server will not run it (a command it does not serve): the client runs it itself. */
  | { v: typeof HOOK_PROTOCOL_VERSION; declined: string };

/** The commands the server runs: those bin.ts hands to the hook bundle. */
export function servedCommand(argv: readonly string[]): boolean {
  if (argv.includes('--help') || argv.includes('-h')) return false;
  if (argv[0] === 'lifecycle') return true;
  return argv[0] === 'hook' && (argv[1] === 'claude-code' || argv[1] === 'codex');
}

/** A request or reply is at most this long (32 MB of stdin, escaped, and the environment). */
export const MAX_MESSAGE_BYTES = 80 * 1024 * 1024;
