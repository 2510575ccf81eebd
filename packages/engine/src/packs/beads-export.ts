import { lstat, readFile, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { BeadsExportIndex } from './beads-export-index';
import { type BeadsIssue, beadsIssueSchema, toBeadsIssue } from './beads-issue';

/** The export's names, newest first (`beads.jsonl` is the legacy one). */
export const BEADS_EXPORT_FILES = ['.beads/issues.jsonl', '.beads/beads.jsonl'] as const;

/** Larger exports are not read on the hook path (a 500-issue export is about 1 MB). */
export const MAX_BEADS_EXPORT_BYTES = 16 * 1024 * 1024;

export interface BeadsExport {
  /** Project-relative path of the file read. */
  file: string;
  /** By id; a later line for the same id replaces the earlier one (Beads appends updates). */
  issues: Map<string, BeadsIssue>;
  /** Lines that were not a JSON issue: skipped, counted, never fatal. */
  skippedLines: number;
}

export type BeadsExportResult =
  | { found: true; export: BeadsExport }
  | { found: false; reason: string };

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
};

/** Parses the JSONL text; bad lines are counted, tombstones dropped. */
export function parseBeadsExport(text: string, file: string): BeadsExport {
  const issues = new Map<string, BeadsIssue>();
  let skippedLines = 0;
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      skippedLines += 1;
      return;
    }
    const parsed = beadsIssueSchema.safeParse(json);
    if (!parsed.success) {
      skippedLines += 1;
      return;
    }
    const issue = toBeadsIssue(parsed.data, index + 1);
    if (issue.status === 'tombstone') issues.delete(issue.id);
    else issues.set(issue.id, issue);
  });
  return { file, issues, skippedLines };
}

type Located =
  | { found: true; file: string; real: string; key: string; settled: boolean }
  | { found: false; reason: string };

/**
 * Finds the project's Beads export. The repository is untrusted: a file
 * that is a link leading outside the project, or not a regular file, or
 * over the size cap, is refused (with the reason), never followed.
 * `key` changes whenever the file does (inode, size, mtime, ctime).
 */
async function locateBeadsExport(projectRoot: string): Promise<Located> {
  const root = await realpath(projectRoot);
  for (const file of BEADS_EXPORT_FILES) {
    const path = join(root, file);
    const stat = await lstat(path, { bigint: true }).catch(() => undefined);
    if (!stat) continue;
    const real = await realpath(path).catch(() => undefined);
    if (!real || !isInside(root, real)) {
      return { found: false, reason: `${file} leads outside the project; not read` };
    }
    const target = stat.isSymbolicLink() ? await lstat(real, { bigint: true }) : stat;
    if (!target.isFile()) return { found: false, reason: `${file} is not a regular file` };
    if (target.size > BigInt(MAX_BEADS_EXPORT_BYTES)) {
      return { found: false, reason: `${file} is over ${MAX_BEADS_EXPORT_BYTES} bytes; not read` };
    }
    const key = `${target.dev}:${target.ino}:${target.size}:${target.mtimeNs}:${target.ctimeNs}`;
    const settled = Date.now() - Number(target.mtimeNs / 1_000_000n) > SETTLE_MS;
    return { found: true, file, real, key, settled };
  }
  return { found: false, reason: 'no .beads/issues.jsonl in the project' };
}

/** Reads and fully parses the project's Beads export (refusals as `locateBeadsExport`). */
export async function readBeadsExport(projectRoot: string): Promise<BeadsExportResult> {
  const located = await locateBeadsExport(projectRoot);
  if (!located.found) return located;
  const text = await readFile(located.real, 'utf8');
  return { found: true, export: parseBeadsExport(text, located.file) };
}

/**
 * File times are coarse (a few ms), so a file rewritten within the same
 * tick at the same size keeps its key: an index is only kept once the
 * file is older than this (as git treats "racily clean" entries).
 */
const SETTLE_MS = 2000;

/** Indexes kept by a long-lived process (MCP server, bench), newest last. */
const INDEX_CACHE = new Map<string, { key: string; index: Promise<BeadsExportIndex> }>();
const MAX_CACHED_INDEXES = 8;

export type BeadsIndexResult =
  | { found: true; file: string; load: () => Promise<BeadsExportIndex> }
  | { found: false; reason: string };

/**
 * Finds the project's export (refusing it as `readBeadsExport` does) and
 * gives a loader for its lazy index: nothing is read until the plane asks
 * for an issue. The index is kept per file while the file's inode, size,
 * mtime and ctime stay the same (and the file is a few seconds old), so a
 * long-lived process reads it once per version.
 */
export async function openBeadsIndex(projectRoot: string): Promise<BeadsIndexResult> {
  const located = await locateBeadsExport(projectRoot);
  if (!located.found) return located;
  const { real, key, settled } = located;
  const load = () => {
    const cached = INDEX_CACHE.get(real);
    if (settled && cached?.key === key) return cached.index;
    const index = readFile(real, 'utf8').then((text) => new BeadsExportIndex(text));
    if (!settled) return index;
    // A failed read is not kept: the next call tries again.
    index.catch(() => {
      if (INDEX_CACHE.get(real)?.index === index) INDEX_CACHE.delete(real);
    });
    INDEX_CACHE.delete(real);
    INDEX_CACHE.set(real, { key, index });
    if (INDEX_CACHE.size > MAX_CACHED_INDEXES) {
      const oldest = INDEX_CACHE.keys().next().value;
      if (oldest !== undefined) INDEX_CACHE.delete(oldest);
    }
    return index;
  };
  return { found: true, file: located.file, load };
}
