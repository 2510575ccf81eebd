import { lazySchema } from '@cairn/core';
import * as z from 'zod/mini';

/** What a Beads issue id looks like; anything else (an option such as `--db=…`) never reaches `bd`. */
export const BEADS_ID = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/**
 * One Beads issue as the planning plane uses it, whichever way it was read
 * (the `.beads/issues.jsonl` export or `bd ... --json`). Field names follow
 * Beads' own `types.Issue` JSON (snake_case); unknown fields are ignored.
 */
export interface BeadsIssue {
  id: string;
  title: string;
  description: string;
  design: string;
  acceptanceCriteria: string;
  notes: string;
  status: string;
  priority: number | undefined;
  issueType: string;
  updatedAt: string | undefined;
  /** What this issue depends on: `blocks`, `parent-child` (the parent), `related`, `discovered-from`. */
  dependsOn: { id: string; type: string }[];
  /** Where it was read: the export's line number, or undefined for `bd`. */
  line: number | undefined;
}

const text = lazySchema(() => z.catch(z.optional(z.string()), undefined));

/** A dependency edge of the export: `issue_id` depends on `depends_on_id`. */
const exportDependencySchema = lazySchema(() =>
  z.object({
    issue_id: z.optional(z.string()),
    depends_on_id: z.string(),
    type: z.catch(z.string(), 'blocks'),
  }),
);

/** A dependency as `bd show --json` gives it: the other issue, with its type. */
const detailDependencySchema = lazySchema(() =>
  z.object({
    id: z.string(),
    dependency_type: z.catch(z.string(), 'blocks'),
  }),
);

export const beadsIssueSchema = lazySchema(() =>
  z.object({
    id: z.string().check(z.minLength(1), z.maxLength(200)),
    title: z.string(),
    description: text,
    design: text,
    acceptance_criteria: text,
    notes: text,
    status: z.catch(z.string(), 'open'),
    priority: z.catch(z.optional(z.number()), undefined),
    issue_type: z.catch(z.string(), 'task'),
    updated_at: text,
    dependencies: z.catch(
      z.optional(z.array(z.union([exportDependencySchema, detailDependencySchema]))),
      undefined,
    ),
  }),
);
export type BeadsIssueJson = z.infer<typeof beadsIssueSchema>;

/** Normalizes a parsed issue; `line` is its line in the export, when read from one. */
export function toBeadsIssue(json: BeadsIssueJson, line?: number): BeadsIssue {
  const dependsOn = (json.dependencies ?? [])
    .map((dependency) =>
      'depends_on_id' in dependency
        ? { id: dependency.depends_on_id, type: dependency.type }
        : { id: dependency.id, type: dependency.dependency_type },
    )
    .filter((dependency) => dependency.id !== json.id);
  return {
    id: json.id,
    title: json.title,
    description: json.description ?? '',
    design: json.design ?? '',
    acceptanceCriteria: json.acceptance_criteria ?? '',
    notes: json.notes ?? '',
    status: json.status,
    priority: json.priority,
    issueType: json.issue_type,
    updatedAt: json.updated_at,
    dependsOn,
    line,
  };
}

/** Closed and deleted issues no longer block anything. */
export const isDone = (issue: BeadsIssue) =>
  issue.status === 'closed' || issue.status === 'tombstone';

/**
 * Ready as `bd ready` means it: open, and every issue that blocks it is
 * done (or unknown to this export).
 */
export function isReady(
  issue: BeadsIssue,
  byId: ReadonlyMap<string, BeadsIssue | undefined>,
): boolean {
  if (issue.status !== 'open') return false;
  return issue.dependsOn.every((dependency) => {
    if (dependency.type !== 'blocks') return true;
    const blocker = byId.get(dependency.id);
    return blocker === undefined || isDone(blocker);
  });
}

/** The parent an issue hangs under (its `parent-child` dependency), if any. */
export const parentOf = (issue: BeadsIssue) =>
  issue.dependsOn.find((dependency) => dependency.type === 'parent-child')?.id;
