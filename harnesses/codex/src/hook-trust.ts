import { sha256Hex } from '@cairn/core';
import type { CodexHookEvent } from './hook-payloads';

/**
 * Codex (0.169) runs a hook only when `[hooks.state."<key>"] trusted_hash`
 * in the user's config.toml equals the hook's current hash. Both are
 * reproduced here and checked against `codex app-server`'s `hooks/list`
 * (`key`, `currentHash`, `trustStatus`) by the tests:
 *
 * - key: `<absolute hooks.json path>:<event in snake_case>:<group index>:<handler index>`
 * - hash: `sha256:` + hex SHA-256 of the canonical JSON (keys sorted, no
 *   spaces, absent values dropped) of the normalized identity
 *   `{event_name, matcher?, hooks: [{type: "command", command, timeout, async, statusMessage?}]}`,
 *   with `timeout` defaulting to 600 s. Only tool events keep a matcher.
 */

const SNAKE: Record<CodexHookEvent, string> = {
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  PostToolUse: 'post_tool_use',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
  SessionEnd: 'session_end',
};

/** Events whose matcher Codex uses (and so hashes); the others ignore it. */
const MATCHER_EVENTS = new Set<CodexHookEvent>(['PostToolUse']);

export interface CommandHookIdentity {
  event: CodexHookEvent;
  matcher?: string | undefined;
  command: string;
  timeoutSec?: number | undefined;
  statusMessage?: string | undefined;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value)
    .filter(([, item]) => item !== undefined && item !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, item]) => [key, canonical(item)]);
  return Object.fromEntries(entries);
}

export function hookTrustHash(hook: CommandHookIdentity): string {
  const identity = {
    event_name: SNAKE[hook.event],
    matcher: MATCHER_EVENTS.has(hook.event) ? hook.matcher : undefined,
    hooks: [
      {
        type: 'command',
        command: hook.command,
        timeout: Math.max(1, hook.timeoutSec ?? 600),
        async: false,
        statusMessage: hook.statusMessage,
      },
    ],
  };
  const json = JSON.stringify(canonical(identity));
  return `sha256:${sha256Hex(json)}`;
}

export function hookTrustKey(
  hooksFile: string,
  event: CodexHookEvent,
  groupIndex: number,
  handlerIndex: number,
): string {
  return `${hooksFile}:${SNAKE[event]}:${groupIndex}:${handlerIndex}`;
}
