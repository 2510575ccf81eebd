import { basename } from 'node:path';
import { commandFamily, toolFamily } from './command-family';
import { scrubVolatile } from './scrub-volatile';
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
 * The step keys alone: a pattern's collapsed step keys occur, in order,
 * among the session's collapsed step keys. A pattern with no steps is
 * followed only by a session that also changed nothing. `followsSteps`
 * is the rule the counts use: it also compares the commands and files.
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

/** Two commands of one family are the same step when this share of their tokens is common to both. */
export const STEP_COMMAND_OVERLAP = 0.6;
const UNKNOWN_FILE = '(a file)';

/** A command's tokens once scrubbed (paths, numbers, hashes gone), lower case. */
function commandTokens(command: string): Set<string> {
  const words = scrubVolatile(command)
    .toLowerCase()
    .split(/[\s;&|]+/);
  return new Set(words.filter(Boolean));
}

/** Jaccard overlap of two token sets. */
function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let common = 0;
  for (const token of a) if (b.has(token)) common += 1;
  const union = a.size + b.size - common;
  return union === 0 ? 1 : common / union;
}

/**
 * A file as a step compares it: its name and its folder's name (the last
 * two segments), so one file in two checkouts, or named absolute by one
 * harness and relative by another, is one file.
 */
function fileTail(path: string): string[] {
  return path
    .trim()
    .split(/[\\/]+/)
    .filter((segment) => segment !== '' && segment !== '.')
    .slice(-2);
}

/** The same file name in the same folder (a path without a folder: the same name). */
function sameFile(a: string, b: string): boolean {
  if (a === UNKNOWN_FILE || b === UNKNOWN_FILE) return true;
  const [x, y] = [fileTail(a), fileTail(b)];
  const n = Math.min(x.length, y.length);
  return n > 0 && x.slice(-n).join('/') === y.slice(-n).join('/');
}

/**
 * One step of a session carries out one step of a pattern: the same key,
 * and for a command the same command once scrubbed or at least
 * STEP_COMMAND_OVERLAP of their tokens in common; for an edit or a
 * configuration change, the same file (its name and folder; a tool that
 * did not name its file matches any).
 */
export function sameStep(wanted: Pick<FixStep, 'key' | 'kind' | 'detail'>, done: typeof wanted) {
  if (wanted.key !== done.key) return false;
  if (wanted.kind !== 'run') return sameFile(wanted.detail, done.detail);
  const [a, b] = [commandTokens(wanted.detail), commandTokens(done.detail)];
  return overlap(a, b) >= STEP_COMMAND_OVERLAP;
}

type StepGroup = { key: string; steps: Pick<FixStep, 'key' | 'kind' | 'detail'>[] };

/** Steps in runs of one key (two edits in a row are one group, as collapsedKeys counts them). */
function groups(steps: readonly Pick<FixStep, 'key' | 'kind' | 'detail'>[]): StepGroup[] {
  const out: StepGroup[] = [];
  for (const step of steps) {
    const last = out.at(-1);
    if (last?.key === step.key) last.steps.push(step);
    else out.push({ key: step.key, steps: [step] });
  }
  return out;
}

/**
 * The matching rule for "followed" (the counts `applied`, `succeeded` and
 * `failed` rest on it): each group of the pattern's steps (a run of one
 * key) meets, in order, a group of the session's steps with the same key
 * in which one step is the same step as one of the pattern's (`sameStep`);
 * other steps may come in between. A pattern with no steps (the command
 * passed when run again) is followed only by a session that changed nothing.
 */
export function followsSteps(
  pattern: readonly Pick<FixStep, 'key' | 'kind' | 'detail'>[],
  session: readonly Pick<FixStep, 'key' | 'kind' | 'detail'>[],
): boolean {
  const wanted = groups(pattern);
  if (wanted.length === 0) return session.length === 0;
  let at = 0;
  for (const group of groups(session)) {
    const next = wanted[at];
    if (!next || group.key !== next.key) continue;
    if (next.steps.some((want) => group.steps.some((done) => sameStep(want, done)))) at += 1;
    if (at === wanted.length) return true;
  }
  return false;
}

/**
 * What tells one step sequence from another with the same keys: each
 * group's key with its commands or files, scrubbed and sorted.
 */
export function stepsIdentity(steps: readonly Pick<FixStep, 'key' | 'kind' | 'detail'>[]): string {
  return groups(steps)
    .map((group) => {
      const details = group.steps.map((step) =>
        step.kind === 'run'
          ? [...commandTokens(step.detail)].sort().join(' ')
          : fileTail(step.detail).join('/'),
      );
      return `${group.key}[${[...new Set(details)].sort().join(', ')}]`;
    })
    .join(' > ');
}
