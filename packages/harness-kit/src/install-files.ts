import { constants } from 'node:fs';
import { copyFile, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  CairnError,
  encodeExactText,
  type HarnessFileChange,
  type HarnessInstallReport,
  makeDirectory,
  writeFileAtomic,
} from '@cairn/core';
import {
  foldersLeftEmpty,
  makeFolder,
  recordCreatedFolders,
  removeCreatedFolders,
} from './created-folders';
import {
  checkInstallStateDir,
  dropRecord,
  type InstallLocation,
  type InstallRecord,
  installStateDir,
  nextRecord,
  readRecord,
  restoredText,
  writeRecord,
} from './install-ledger';

/**
 * Install and uninstall for every harness go through here: read the user's
 * file, compute its new text, and apply all changes or none. A file that
 * exists and changes is backed up first, under Cairn's state (never beside
 * the file, where it would be committed); a file Cairn's removal leaves
 * empty is deleted; unchanged files are not touched, so a second install
 * reports only `unchanged`. Uninstall puts back a file's original bytes when
 * nothing but Cairn changed it since the install.
 */
export interface PlannedFile {
  path: string;
  /** Current text, undefined when the file does not exist. */
  before: string | undefined;
  /** New text; undefined deletes the file. */
  after: string | undefined;
}

export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Parses a JSON (or JSONC-free) settings file; damage is INVALID_CONFIG and nothing is written. */
export function parseJsonFile(path: string, text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CairnError(
      'INVALID_CONFIG',
      `${path} is not valid JSON: ${(error as Error).message}`,
      {
        cause: error,
        hint: `fix ${path} by hand (Cairn changed nothing), then run the command again`,
        details: { path },
      },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CairnError('INVALID_CONFIG', `${path} must hold a JSON object`, {
      hint: `fix ${path} by hand (Cairn changed nothing), then run the command again`,
      details: { path },
    });
  }
  return value as Record<string, unknown>;
}

/** JSON as harness settings files are usually written: two spaces, trailing newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * `value` in the layout of `like` (the file's current text): one line when
 * it was one line, its indentation (tabs or n spaces), its line ending, and a
 * final newline only when it had one. A new file gets `formatJson`'s layout.
 */
export function formatJsonLike(value: unknown, like: string | undefined): string {
  if (like === undefined || like.trim() === '') return formatJson(value);
  const eol = like.includes('\r\n') ? '\r\n' : '\n';
  const final = /\r?\n$/.test(like) ? eol : '';
  if (!like.trim().includes('\n')) return `${JSON.stringify(value)}${final}`;
  const indent = /\n([ \t]+)\S/.exec(like)?.[1] ?? '  ';
  return `${JSON.stringify(value, null, indent).replace(/\n/g, eol)}${final}`;
}

/** Plans a JSON file edit; `edit` returns the new object, or undefined to delete the file. */
export async function planJsonEdit(
  path: string,
  edit: (current: Record<string, unknown>) => Record<string, unknown> | undefined,
): Promise<PlannedFile> {
  const before = await readOptional(path);
  const current = parseJsonFile(path, before);
  const next = edit(structuredClone(current));
  if (next === undefined) return { path, before, after: undefined };
  const unchanged = before !== undefined && JSON.stringify(next) === JSON.stringify(current);
  return { path, before, after: unchanged ? before : formatJsonLike(next, before) };
}

/** Lines removed and added, after trimming the common head and tail: enough to review a config edit. */
export function previewChange(before: string | undefined, after: string | undefined): string {
  const a = before === undefined ? [] : before.split('\n');
  const b = after === undefined ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail += 1;
  }
  const removed = a.slice(head, a.length - tail).map((line) => `- ${line}`);
  const added = b.slice(head, b.length - tail).map((line) => `+ ${line}`);
  return [...removed, ...added].join('\n');
}

function actionOf(file: PlannedFile): HarnessFileChange['action'] {
  if (file.before === file.after) return 'unchanged';
  if (file.after === undefined) return file.before === undefined ? 'unchanged' : 'delete';
  return file.before === undefined ? 'create' : 'update';
}

function backupPath(dir: string, path: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return join(dir, 'backups', `${basename(path)}.${stamp}`);
}

/** Copies without ever replacing an earlier backup: `-2`, `-3`... when the name is taken. */
async function backUp(path: string, name: string): Promise<string> {
  // The backups folder is under .cairn/state for a project install: never reached through a link.
  await makeDirectory(dirname(name));
  for (let attempt = 1; ; attempt += 1) {
    const target = attempt === 1 ? name : `${name}-${attempt}`;
    try {
      await copyFile(path, target, constants.COPYFILE_EXCL);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw error;
    }
  }
}

export interface ApplyOptions {
  notes?: string[];
  now?: Date;
  /** Uninstall: restore each file's original bytes when it still holds what Cairn wrote. */
  uninstall?: boolean;
}

/** The change each planned file makes, with where its backup would go. */
function describeChanges(dir: string, files: PlannedFile[], at: Date): HarnessFileChange[] {
  return files.map((file) => {
    const action = actionOf(file);
    const backup =
      file.before !== undefined && (action === 'update' || action === 'delete')
        ? backupPath(dir, file.path, at)
        : undefined;
    return {
      path: file.path,
      action,
      ...(backup ? { backup } : {}),
      preview: action === 'unchanged' ? '' : previewChange(file.before, file.after),
    };
  });
}

const EMPTY_FOLDER = '(an empty folder the install created)';

/**
 * Writes the planned files: backups first, so a failure part-way leaves
 * every edited file with its copy; each file's install record after it.
 * Returns the folders created to hold the files.
 */
async function writeFiles(
  harness: string,
  stateDir: string,
  files: PlannedFile[],
  changes: HarnessFileChange[],
  records: (InstallRecord | undefined)[],
  uninstall: boolean,
): Promise<string[]> {
  const created: string[] = [];
  for (const change of changes) {
    if (change.backup) change.backup = await backUp(change.path, change.backup);
  }
  for (const [index, file] of files.entries()) {
    const { action } = changes[index]!;
    if (action === 'delete') await rm(file.path, { force: true });
    if (action === 'create' || action === 'update') {
      created.push(...(await makeFolder(dirname(file.path))));
      // Exact: text read with decodeExactText keeps the bytes that are not UTF-8.
      await writeFileAtomic(file.path, encodeExactText(file.after!));
    }
    if (uninstall) await dropRecord(stateDir, harness, file.path);
    else if (action === 'create' || action === 'update') {
      await makeDirectory(join(stateDir, harness));
      const record = nextRecord(records[index], file.path, file.before, file.after!);
      await writeRecord(stateDir, harness, record);
    }
  }
  return created;
}

/**
 * Applies the planned files (or only describes them with `dryRun`).
 * Uninstall also removes the folders the install created and left empty.
 */
export async function applyPlan(
  harness: string,
  target: InstallLocation & { dryRun: boolean },
  planned: PlannedFile[],
  options: ApplyOptions = {},
): Promise<HarnessInstallReport> {
  const at = options.now ?? new Date();
  checkInstallStateDir(target);
  const stateDir = installStateDir(target);
  const uninstall = options.uninstall === true;
  const records = await Promise.all(
    planned.map((file) => readRecord(stateDir, harness, file.path)),
  );
  const files = uninstall
    ? planned.map((file, i) => ({
        ...file,
        after: restoredText(records[i], file.before, file.after),
      }))
    : planned;
  const changes = describeChanges(join(stateDir, harness), files, at);
  let folders: string[] = [];
  if (target.dryRun && uninstall) {
    const deleted = changes.filter((change) => change.action === 'delete').map((c) => c.path);
    folders = await foldersLeftEmpty(stateDir, harness, target, deleted);
  } else if (!target.dryRun) {
    const created = await writeFiles(harness, stateDir, files, changes, records, uninstall);
    if (uninstall) folders = await removeCreatedFolders(stateDir, harness, target);
    else await recordCreatedFolders(stateDir, harness, target, created);
  }
  changes.push(
    ...folders.map((path) => ({ path, action: 'delete' as const, preview: EMPTY_FOLDER })),
  );
  return {
    harness,
    scope: target.scope,
    dryRun: target.dryRun,
    changes,
    notes: options.notes ?? [],
  };
}
