// `fs.promises` on use, not `node:fs/promises` on load (the hook bundle loads this module).
import { promises as fs } from 'node:fs';
import { join, relative, sep } from 'node:path';
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

/**
 * Reads the project's Beads export. The repository is untrusted: a file
 * that is a link leading outside the project, or not a regular file, or
 * over the size cap, is refused (with the reason), never followed.
 */
export async function readBeadsExport(projectRoot: string): Promise<BeadsExportResult> {
  const root = await fs.realpath(projectRoot);
  for (const file of BEADS_EXPORT_FILES) {
    const path = join(root, file);
    const stat = await fs.lstat(path).catch(() => undefined);
    if (!stat) continue;
    const real = await fs.realpath(path).catch(() => undefined);
    if (!real || !isInside(root, real)) {
      return { found: false, reason: `${file} leads outside the project; not read` };
    }
    const target = stat.isSymbolicLink() ? await fs.lstat(real) : stat;
    if (!target.isFile()) return { found: false, reason: `${file} is not a regular file` };
    if (target.size > MAX_BEADS_EXPORT_BYTES) {
      return { found: false, reason: `${file} is over ${MAX_BEADS_EXPORT_BYTES} bytes; not read` };
    }
    const text = await fs.readFile(real, 'utf8');
    return { found: true, export: parseBeadsExport(text, file) };
  }
  return { found: false, reason: 'no .beads/issues.jsonl in the project' };
}
