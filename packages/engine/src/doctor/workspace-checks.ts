import {
  CairnError,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  listMemoryFiles,
  listSharedFixesFiles,
  MAX_CAIRN_READ_BYTES,
  MEMORY_FIXES_DIR,
  MEMORY_LONG_TERM_FILENAME,
  MEMORY_THREADS_DIR,
  MEMORY_WORKSPACE_PATH,
  readCairnFile,
  readMemoryFile,
  THREAD_HEAD_END_MARKER,
  THREAD_HEAD_START_MARKER,
} from '@cairn/core';
import { parseSharedFixes } from '../history';
import type { DoctorFinding } from './doctor-finding';

/**
 * A memory file above this size is reported. Every add rescans the
 * workspace and search reads it; a daily file grows by units of at most
 * `limits.maxUnitChars` (2000 by default), so 5 MB is some 2,500
 * maximum-size units in a day: a runaway writer or pasted binary, not notes.
 */
export const MAX_MEMORY_FILE_BYTES = 5 * 1024 * 1024;
/** Files above this are not read at all (the size finding is enough): the cap of every read under `.cairn/`. */
const MAX_READ_BYTES = MAX_CAIRN_READ_BYTES;
/**
 * A managed head whose region is more than this many times its budget
 * (`limits.headTokens`, about 4 characters a token) is a runaway head: the
 * writer keeps it within budget, so only a loop or a hand paste grows it.
 */
export const RUNAWAY_HEAD_FACTOR = 4;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function count(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Through the `.cairn/` resolver (no link followed, regular files only); undefined when unreadable. */
async function readBytes(rootDir: string, path: string, size: number) {
  if (size > MAX_READ_BYTES) return undefined;
  return readCairnFile(rootDir, path).catch(() => undefined);
}

function markerFindings(
  path: string,
  text: string,
  markers: { start: string; end: string },
  budgetChars: number,
): DoctorFinding[] {
  const starts = count(text, markers.start);
  const ends = count(text, markers.end);
  if (starts === 0 && ends === 0) return [];
  const first = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (starts !== 1 || ends !== 1 || end < first) {
    return [
      {
        severity: 'warning',
        area: 'workspace',
        path,
        message: `the managed region's markers are unbalanced (${starts} × ${markers.start}, ${ends} × ${markers.end}${end < first ? ', end before start' : ''})`,
        fix: `keep exactly one ${markers.start} line followed by one ${markers.end} line; Cairn rewrites only what is between them`,
      },
    ];
  }
  const region = end - first - markers.start.length;
  if (region <= budgetChars * RUNAWAY_HEAD_FACTOR) return [];
  return [
    {
      severity: 'warning',
      area: 'workspace',
      path,
      message: `runaway head: the managed region holds ${region} characters, more than ${RUNAWAY_HEAD_FACTOR}× its budget of about ${budgetChars} (limits.headTokens)`,
      fix: 'move what should stay into units (`cairn add`) or outside the markers; the next head write shrinks the region to its budget',
    },
  ];
}

const CONFLICT_START = /^<{7} /m;
const CONFLICT_END = /^>{7} /m;

/** A git merge left a conflict in the file: its text holds both sides and git's lines. */
function conflictFinding(path: string, text: string): DoctorFinding | undefined {
  if (!CONFLICT_START.test(text) || !CONFLICT_END.test(text)) return undefined;
  return {
    severity: 'warning',
    area: 'workspace',
    path,
    message:
      'the file holds an unresolved git merge conflict (<<<<<<< … >>>>>>> lines): units inside it are read as raw text',
    fix: "resolve it as any conflict (keep both sides' units; in a managed head region either side will do: the next session end renders it anew), then commit",
  };
}

/** Encoding, binary content and size of one file, then its head markers. */
function contentFindings(
  path: string,
  bytes: Uint8Array,
  relPath: string,
  budgetChars: number,
): DoctorFinding[] {
  if (bytes.includes(0)) {
    return [
      {
        severity: 'error',
        area: 'workspace',
        path,
        message: 'the file holds NUL bytes: binary content, not markdown',
        fix: 'move the file out of .cairn/memory/ (Cairn reads it as text and a unit write to it would keep the garbage)',
      },
    ];
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return [
      {
        severity: 'error',
        area: 'workspace',
        path,
        message:
          'the file is not valid UTF-8; Cairn reads the bad bytes as U+FFFD and a write would keep those',
        fix: 'convert it to UTF-8 (e.g. `iconv -f latin1 -t utf-8`) before the next write to it',
      },
    ];
  }
  const conflict = conflictFinding(path, text);
  if (conflict) return [conflict];
  if (relPath === MEMORY_LONG_TERM_FILENAME) {
    return markerFindings(
      path,
      text,
      { start: HEAD_START_MARKER, end: HEAD_END_MARKER },
      budgetChars,
    );
  }
  if (relPath.startsWith(`${MEMORY_THREADS_DIR}/`)) {
    const markers = { start: THREAD_HEAD_START_MARKER, end: THREAD_HEAD_END_MARKER };
    return markerFindings(path, text, markers, budgetChars);
  }
  return [];
}

/** The shared fix pattern files another clone's Cairn would refuse (docs/TEAMS.md). */
async function sharedFixesFindings(rootDir: string): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  for (const file of await listSharedFixesFiles(rootDir)) {
    const path = `${MEMORY_WORKSPACE_PATH}/${file.path}`;
    const author = file.path.slice(`${MEMORY_FIXES_DIR}/`.length, -'.md'.length);
    try {
      parseSharedFixes(file.path, await readMemoryFile(rootDir, file.path), author);
    } catch (error) {
      findings.push({
        severity: 'warning',
        area: 'workspace',
        path,
        message: `${error instanceof Error ? error.message : String(error)}: no clone imports its fix patterns`,
        fix:
          CairnError.isInstance(error) && error.hint
            ? error.hint
            : 'restore it from git or delete it',
      });
    }
  }
  return findings;
}

/**
 * Sanity of every file under .cairn/memory/: valid UTF-8, no NUL bytes, a
 * size under MAX_MEMORY_FILE_BYTES, balanced head markers and a head within
 * RUNAWAY_HEAD_FACTOR × its budget. Damaged unit markers are the unit
 * codec's issues, reported next to these.
 */
export async function workspaceFindings(
  rootDir: string,
  headTokens: number,
): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  const budgetChars = headTokens * 4;
  for (const file of await listMemoryFiles(rootDir)) {
    const path = `${MEMORY_WORKSPACE_PATH}/${file.path}`;
    if (file.bytes > MAX_MEMORY_FILE_BYTES) {
      findings.push({
        severity: 'warning',
        area: 'workspace',
        path,
        message: `the file has ${file.bytes} bytes, above ${MAX_MEMORY_FILE_BYTES} (every add rescans it and search reads it)`,
        fix: 'look for a runaway writer; move old content to an archive outside .cairn/memory/',
      });
    }
    const bytes = await readBytes(rootDir, path, file.bytes);
    if (!bytes) {
      if (file.bytes <= MAX_READ_BYTES) {
        findings.push({
          severity: 'error',
          area: 'workspace',
          path,
          message: 'the file cannot be read',
          fix: 'check its permissions: Cairn skips it, so its memories are not searched',
        });
      }
      continue;
    }
    findings.push(...contentFindings(path, bytes, file.path, budgetChars));
  }
  findings.push(...(await sharedFixesFindings(rootDir)));
  return findings;
}
