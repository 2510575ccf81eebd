import { CairnError } from '@cairn/core';
import { z } from 'zod';
import { CODEX_HOOK_EVENTS, type CodexHookEvent } from './hook-payloads';
import { hookTrustHash, hookTrustKey } from './hook-trust';

/**
 * Edits of a Codex hooks.json (`{"hooks": {"<Event>": [{matcher?, hooks: [...]}]}}`).
 * Cairn's handlers are recognised by what they run (`... hook codex <Event>`).
 * Cairn's group goes after the user's groups and an unchanged one stays where
 * it is: Codex keys hook trust by group index, so the user's hooks keep
 * their trust and a second install changes nothing.
 */
type Json = Record<string, unknown>;

/** Seconds per hook; part of the trust hash. Codex clamps SessionEnd to 3 s anyway. */
const HOOK_TIMEOUT_SEC: Record<CodexHookEvent, number> = {
  SessionStart: 30,
  UserPromptSubmit: 30,
  PostToolUse: 15,
  PreCompact: 30,
  PostCompact: 60,
  SessionEnd: 3,
};

const handler = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  timeout: z.number().optional(),
  statusMessage: z.string().optional(),
});
const group = z.looseObject({ matcher: z.string().nullish(), hooks: z.array(handler) });
const hooksDocument = z.looseObject({ hooks: z.record(z.string(), z.array(group)).optional() });

export function checkHooksDocument(path: string, document: Json): void {
  const parsed = hooksDocument.safeParse(document);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  throw new CairnError(
    'INVALID_CONFIG',
    `${path} is not a Codex hooks file: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
    {
      hint: `fix ${path} by hand (Cairn changed nothing), then run the command again`,
      details: { path },
    },
  );
}

const SAFE_WORD = /^[A-Za-z0-9_\-./:=@%+,]+$/;
const quote = (word: string) =>
  SAFE_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

export function codexHookCommand(cairnCommand: string[], event: CodexHookEvent): string {
  return [...cairnCommand, 'hook', 'codex', event].map(quote).join(' ');
}

const CAIRN_COMMAND = new RegExp(`(?:^|\\s)hook codex (${CODEX_HOOK_EVENTS.join('|')})$`);

function isCairnHandler(value: unknown): boolean {
  const command = (value as { command?: unknown } | null)?.command;
  return typeof command === 'string' && CAIRN_COMMAND.test(command.trim());
}

function isCairnGroup(value: unknown): boolean {
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  return Array.isArray(hooks) && hooks.some(isCairnHandler);
}

function cairnGroup(cairnCommand: string[], event: CodexHookEvent): Json {
  const command = codexHookCommand(cairnCommand, event);
  return { hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SEC[event] }] };
}

/** A group without Cairn's handlers, or undefined when nothing else was in it. */
function withoutCairnHandlers(value: unknown): unknown {
  if (!isCairnGroup(value)) return value;
  const others = (value as { hooks: unknown[] }).hooks.filter((item) => !isCairnHandler(item));
  return others.length > 0 ? { ...(value as Json), hooks: others } : undefined;
}

export function withCairnHooks(document: Json, cairnCommand: string[]): Json {
  const hooks: Json = { ...((document.hooks as Json | undefined) ?? {}) };
  for (const event of CODEX_HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const ours = cairnGroup(cairnCommand, event);
    const current = groups.filter(isCairnGroup);
    if (current.length === 1 && JSON.stringify(current[0]) === JSON.stringify(ours)) continue;
    const kept = groups.map(withoutCairnHandlers).filter((item) => item !== undefined);
    hooks[event] = [...kept, ours];
  }
  return { ...document, hooks };
}

export function withoutCairnHooks(document: Json): Json {
  const source = document.hooks as Json | undefined;
  if (!source || typeof source !== 'object') return document;
  const hooks: Json = {};
  for (const [event, groups] of Object.entries(source)) {
    if (!Array.isArray(groups) || !groups.some(isCairnGroup)) {
      hooks[event] = groups;
      continue;
    }
    const kept = groups.map(withoutCairnHandlers).filter((item) => item !== undefined);
    if (kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _, ...rest } = document;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

export interface CairnHookEntry {
  event: CodexHookEvent;
  command: string;
  /** `[hooks.state."<key>"]` in the user's config.toml. */
  key: string;
  trustedHash: string;
}

/** Cairn's handlers in a hooks document, with the trust key and hash Codex computes for each. */
export function cairnHookEntries(document: Json, hooksFile: string): CairnHookEntry[] {
  const entries: CairnHookEntry[] = [];
  const hooks = (document.hooks as Json | undefined) ?? {};
  for (const event of CODEX_HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as Json[]) : [];
    groups.forEach((item, groupIndex) => {
      const handlers = Array.isArray(item.hooks) ? (item.hooks as Json[]) : [];
      handlers.forEach((entry, handlerIndex) => {
        if (!isCairnHandler(entry)) return;
        const command = String(entry.command);
        entries.push({
          event,
          command,
          key: hookTrustKey(hooksFile, event, groupIndex, handlerIndex),
          trustedHash: hookTrustHash({
            event,
            matcher: typeof item.matcher === 'string' ? item.matcher : undefined,
            command,
            timeoutSec: typeof entry.timeout === 'number' ? entry.timeout : undefined,
            statusMessage:
              typeof entry.statusMessage === 'string' ? entry.statusMessage : undefined,
          }),
        });
      });
    });
  }
  return entries;
}

/** `PreToolUse` -> `pre_tool_use`: how Codex names an event in a trust key. */
const snakeCase = (event: string) => event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();

/**
 * The trust keys of the handlers in a hooks document that are not Cairn's:
 * their `[hooks.state]` entries are the user's, wherever they stand.
 */
export function userHookKeys(document: Json, hooksFile: string): Set<string> {
  const keys = new Set<string>();
  const hooks = (document.hooks as Json | undefined) ?? {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((item: Json, groupIndex) => {
      const handlers = Array.isArray(item?.hooks) ? (item.hooks as unknown[]) : [];
      handlers.forEach((entry, handlerIndex) => {
        if (!isCairnHandler(entry)) {
          keys.add(`${hooksFile}:${snakeCase(event)}:${groupIndex}:${handlerIndex}`);
        }
      });
    });
  }
  return keys;
}
