import { basename } from 'node:path';
import { commandFamily, toolFamily } from './command-family';
import type { ToolEvent } from './tool-failure';

/** What a step of a fix did: changed a file, changed a config file, ran a command. */
export type FixStepKind = 'edit' | 'config' | 'run';

export interface FixStep {
  kind: FixStepKind;
  /** What "followed" compares: `edit`, `config`, or `run:<command family>`. */
  key: string;
  /** For people: the file edited or the command run (secrets redacted, cut at 200 characters). */
  detail: string;
  /** The lineage transcript entry of the tool event (`T:<transcript>:<seq>`). */
  eventId: string;
}

/** The harnesses' file-changing tools (Claude Code, Codex, OpenCode, OpenClaw). */
const EDIT_TOOLS = new Set([
  'edit',
  'multiedit',
  'write',
  'notebookedit',
  'apply_patch',
  'patch',
  'str_replace_based_edit_tool',
  'create_file',
  'write_file',
  'edit_file',
]);

/** File names whose change is a configuration change rather than a code edit. */
const CONFIG_FILE =
  /^(?:package\.json|\.npmrc|\.nvmrc|\.node-version|\.tool-versions|pnpm-workspace\.yaml|tsconfig(?:\.[\w-]+)?\.json|\.env(?:\.[\w-]+)?|Dockerfile|docker-compose\.ya?ml|compose\.ya?ml|Makefile|pyproject\.toml|requirements(?:-[\w-]+)?\.txt|setup\.cfg|Cargo\.toml|go\.mod|pom\.xml|build\.gradle(?:\.kts)?|[\w.-]+\.config\.[cm]?[jt]s|\.?[\w-]+rc(?:\.json|\.ya?ml)?|[\w-]+\.toml|[\w-]+\.ya?ml)$/;

function pathOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  for (const name of ['file_path', 'filePath', 'path', 'notebook_path', 'file']) {
    const value = fields[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

const cut = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/**
 * The fix step a (successful) tool event stands for, or undefined for
 * tools that change nothing (reads, searches, memory tools). A shell
 * command is a `run` keyed by its command family; a file-changing tool an
 * `edit`, or a `config` when the file is a manifest, lockfile-adjacent or
 * configuration file.
 */
export function fixStepOf(
  event: ToolEvent,
  input: unknown,
  eventId: string,
  redact: (text: string) => string,
): FixStep | undefined {
  if (toolFamily(event.tool) === 'shell') {
    const family = commandFamily(event.command);
    if (!family || !event.command) return undefined;
    return { kind: 'run', key: `run:${family}`, detail: cut(redact(event.command)), eventId };
  }
  if (!EDIT_TOOLS.has(event.tool.trim().toLowerCase())) return undefined;
  const path = pathOf(input) ?? '(a file)';
  const kind: FixStepKind = CONFIG_FILE.test(basename(path)) ? 'config' : 'edit';
  return { kind, key: kind, detail: cut(redact(path)), eventId };
}

/** Step keys with runs of the same key collapsed: two edits in a row are one edit. */
export function collapsedKeys(steps: readonly Pick<FixStep, 'key'>[]): string[] {
  const keys: string[] = [];
  for (const step of steps) if (keys.at(-1) !== step.key) keys.push(step.key);
  return keys;
}

/** The identity of a step sequence: its collapsed keys joined by ` > ` (`''` for none). */
export function stepsKeyOf(steps: readonly Pick<FixStep, 'key'>[]): string {
  return collapsedKeys(steps).join(' > ');
}

/**
 * The matching rule for "followed": a pattern's collapsed step keys occur,
 * in order, among the session's collapsed step keys (other steps may come
 * in between). A pattern with no steps (the command passed when run again)
 * is followed only by a session that also changed nothing.
 */
export function followsPattern(patternKey: string, sessionKeys: readonly string[]): boolean {
  const wanted = patternKey === '' ? [] : patternKey.split(' > ');
  if (wanted.length === 0) return sessionKeys.length === 0;
  let at = 0;
  for (const key of sessionKeys) {
    if (key === wanted[at]) at += 1;
    if (at === wanted.length) return true;
  }
  return false;
}
