import { type BeadsIssue, beadsIssueSchema, parentOf, toBeadsIssue } from './beads-issue';

/**
 * The fast path of the id scan: Beads writes `id` first (`types.Issue`
 * field order), so most lines start `{"id":"…"`. Anything else (another
 * field order, an escaped id) falls back to JSON.parse for that line.
 */
const LEADING_ID = /^\{\s*"id"\s*:\s*"([^"\\]*)"/;
/** Ids that Beads' encoder writes as they are: safe to look for as a plain substring. */
const PLAIN_ID = /^[A-Za-z0-9_.-]+$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id of a line, or undefined when the line cannot be an issue. */
function scanId(line: string): string | undefined {
  const fast = LEADING_ID.exec(line);
  // A second `"id"` key (JSON.parse keeps the last) or a nested one: parse the line.
  if (fast && line.indexOf('"id"', fast[0].length) === -1) return fast[1];
  try {
    const json: unknown = JSON.parse(line);
    return isRecord(json) && typeof json.id === 'string' ? json.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Beads export read lazily: one cheap pass finds each line's id, and a
 * line is JSON-parsed and zod-checked only when the planning plane asks
 * for that issue (the plane reads a handful of a file's hundreds). It
 * answers as `parseBeadsExport` does: a later line for an id replaces an
 * earlier one, a tombstone drops the issue, a bad line is skipped (so an
 * earlier good line for the same id stands) and counted.
 */
export class BeadsExportIndex {
  /** Non-empty lines (1-based line number, text), in file order. */
  private readonly lines: { line: number; text: string }[] = [];
  /** Positions in `lines` by the id each seems to hold, in file order. */
  private readonly byId = new Map<string, number[]>();
  /** Lines whose id could not be found: never an issue. */
  private readonly unreadable: number;
  private readonly resolved = new Map<string, BeadsIssue | undefined>();
  private readonly parsed = new Map<number, BeadsIssue | undefined>();
  private readonly childrenOf = new Map<string, string[]>();
  private skipped: number | undefined;

  constructor(text: string) {
    let unreadable = 0;
    const raw = text.split('\n');
    for (let index = 0; index < raw.length; index += 1) {
      const line = (raw[index] ?? '').trim();
      if (line === '') continue;
      const id = scanId(line);
      if (id === undefined) {
        unreadable += 1;
        continue;
      }
      const at = this.lines.push({ line: index + 1, text: line }) - 1;
      const positions = this.byId.get(id);
      if (positions) positions.push(at);
      else this.byId.set(id, [at]);
    }
    this.unreadable = unreadable;
  }

  /** The issue a line holds, or undefined for a bad line; parsed once. */
  private parse(at: number): BeadsIssue | undefined {
    if (this.parsed.has(at)) return this.parsed.get(at);
    const entry = this.lines[at];
    let issue: BeadsIssue | undefined;
    if (entry) {
      try {
        const checked = beadsIssueSchema.safeParse(JSON.parse(entry.text));
        if (checked.success) issue = toBeadsIssue(checked.data, entry.line);
      } catch {
        issue = undefined;
      }
    }
    this.parsed.set(at, issue);
    return issue;
  }

  /** The issue as the export leaves it: its last good line, unless that is a tombstone. */
  get(id: string): BeadsIssue | undefined {
    if (this.resolved.has(id)) return this.resolved.get(id);
    let found: BeadsIssue | undefined;
    const positions = this.byId.get(id) ?? [];
    for (let i = positions.length - 1; i >= 0; i -= 1) {
      const issue = this.parse(positions[i] as number);
      // A line with a duplicate `id` key may parse to another id: not this issue's line.
      if (!issue || issue.id !== id) continue;
      found = issue.status === 'tombstone' ? undefined : issue;
      break;
    }
    this.resolved.set(id, found);
    return found;
  }

  /** The issues hanging under `parent` (their parent-child dependency). */
  children(parent: string): string[] {
    const known = this.childrenOf.get(parent);
    if (known) return known;
    const needle = JSON.stringify(parent);
    const plain = PLAIN_ID.test(parent);
    const found: string[] = [];
    for (const [id, positions] of this.byId) {
      // Only lines that spell the parent's id can name it (all, for an id with odd characters).
      if (plain && !positions.some((at) => this.lines[at]?.text.includes(needle))) continue;
      const issue = this.get(id);
      if (issue && parentOf(issue) === parent) found.push(id);
    }
    this.childrenOf.set(parent, found);
    return found;
  }

  /**
   * Lines that are not a JSON issue, as `parseBeadsExport` counts them.
   * Checks every line the first time it is asked (the one full pass).
   */
  get skippedLines(): number {
    if (this.skipped === undefined) {
      let bad = this.unreadable;
      for (let at = 0; at < this.lines.length; at += 1) if (!this.parse(at)) bad += 1;
      this.skipped = bad;
    }
    return this.skipped;
  }
}
