import { type BdClient, createBdClient, findBd } from './beads-cli';
import { type BeadsExport, readBeadsExport } from './beads-export';
import { type BeadsIssue, isReady, parentOf } from './beads-issue';

/** The Beads work graph as the planning plane reads it, from `bd` or from the export. */
export interface PlanningGraph {
  source: 'bd' | 'export';
  /** Project-relative export path, for provenance (absent for `bd`). */
  file: string | undefined;
  /** Export lines that were skipped as corrupt (0 for `bd`). */
  skippedLines: number;
  get(id: string): Promise<BeadsIssue | undefined>;
  /** The issues that hang under `id` (parent-child). */
  children(id: string): Promise<string[]>;
  ready(): Promise<BeadsIssue[]>;
  /** Narrows candidate ids found in a prompt or branch to those worth looking up. */
  known(ids: string[]): Promise<string[]>;
}

export function exportGraph(data: BeadsExport): PlanningGraph {
  const children = new Map<string, string[]>();
  for (const issue of data.issues.values()) {
    const parent = parentOf(issue);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), issue.id]);
  }
  return {
    source: 'export',
    file: data.file,
    skippedLines: data.skippedLines,
    get: async (id) => data.issues.get(id),
    children: async (id) => children.get(id) ?? [],
    ready: async () => [...data.issues.values()].filter((issue) => isReady(issue, data.issues)),
    known: async (ids) => ids.filter((id) => data.issues.has(id)),
  };
}

/** Without an export to check against, `bd` is asked about at most this many named ids. */
const MAX_BD_LOOKUPS = 3;

export function bdGraph(client: BdClient): PlanningGraph {
  const shown = new Map<string, Promise<{ issue: BeadsIssue | undefined; children: string[] }>>();
  const show = (id: string) => {
    let result = shown.get(id);
    if (!result) {
      // An unknown id makes `bd show` fail: that is "not found", not a plane failure.
      result = client.show(id).catch(() => ({ issue: undefined, children: [] }));
      shown.set(id, result);
    }
    return result;
  };
  let ready: Promise<BeadsIssue[]> | undefined;
  return {
    source: 'bd',
    file: undefined,
    skippedLines: 0,
    get: async (id) => (await show(id)).issue,
    children: async (id) => (await show(id)).children,
    ready: () => {
      ready ??= client.ready();
      return ready;
    },
    known: async (ids) => {
      const found: string[] = [];
      for (const id of ids.slice(0, MAX_BD_LOOKUPS)) if ((await show(id)).issue) found.push(id);
      return found;
    },
  };
}

export type PlanningSource = 'auto' | 'bd' | 'export';

export type PlanningGraphResult =
  | { graph: PlanningGraph; notes: string[] }
  | { graph: undefined; notes: string[] };

/**
 * Opens the work graph: `bd` when it is on PATH (outside the project),
 * else the `.beads/` export. `notes` says what was not used and why.
 */
export async function openPlanningGraph(
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  source: PlanningSource = 'auto',
): Promise<PlanningGraphResult> {
  const notes: string[] = [];
  if (source !== 'export') {
    const bin = await findBd(env, projectRoot);
    if (bin) return { graph: bdGraph(createBdClient(bin, projectRoot, env)), notes };
    notes.push('bd is not on PATH');
    if (source === 'bd') return { graph: undefined, notes };
  }
  const data = await readBeadsExport(projectRoot);
  if (!data.found) return { graph: undefined, notes: [...notes, data.reason] };
  return { graph: exportGraph(data.export), notes };
}
