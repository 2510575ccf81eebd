import { type BdClient, createBdClient, findBd } from './beads-cli';
import { openBeadsIndex } from './beads-export';
import type { BeadsExportIndex } from './beads-export-index';
import { type BeadsIssue, isReady } from './beads-issue';

/** The Beads work graph as the planning plane reads it, from `bd` or from the export. */
export interface PlanningGraph {
  source: 'bd' | 'export';
  /** Project-relative export path, for provenance (absent for `bd`). */
  file: string | undefined;
  /**
   * Export lines skipped as corrupt (0 for `bd`, and 0 while the export
   * has not been read: a request that names no issue never reads it).
   * The first call checks every line.
   */
  skippedLines(): number;
  get(id: string): Promise<BeadsIssue | undefined>;
  /** The issues that hang under `id` (parent-child). */
  children(id: string): Promise<string[]>;
  /** The ready issues (as `bd ready` means it) among `ids`. */
  ready(ids: readonly string[]): Promise<BeadsIssue[]>;
  /** Narrows candidate ids found in a prompt or branch to those worth looking up. */
  known(ids: string[]): Promise<string[]>;
}

/** The graph over the export's lazy index: only the issues the plane walks are parsed. */
export function exportGraph(file: string, load: () => Promise<BeadsExportIndex>): PlanningGraph {
  let loaded: BeadsExportIndex | undefined;
  const index = async () => {
    loaded ??= await load();
    return loaded;
  };
  return {
    source: 'export',
    file,
    skippedLines: () => loaded?.skippedLines ?? 0,
    get: async (id) => (await index()).get(id),
    children: async (id) => [...(await index()).children(id)],
    ready: async (ids) => {
      const data = await index();
      const ready: BeadsIssue[] = [];
      for (const id of ids) {
        const issue = data.get(id);
        if (!issue) continue;
        const blockers = new Map(issue.dependsOn.map((d) => [d.id, data.get(d.id)] as const));
        if (isReady(issue, blockers)) ready.push(issue);
      }
      return ready;
    },
    known: async (ids) => {
      if (ids.length === 0) return [];
      const data = await index();
      return ids.filter((id) => data.get(id) !== undefined);
    },
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
    skippedLines: () => 0,
    get: async (id) => (await show(id)).issue,
    children: async (id) => (await show(id)).children,
    ready: async (ids) => {
      ready ??= client.ready();
      const wanted = new Set(ids);
      return (await ready).filter((issue) => wanted.has(issue.id));
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
  const opened = await openBeadsIndex(projectRoot);
  if (!opened.found) return { graph: undefined, notes: [...notes, opened.reason] };
  return { graph: exportGraph(opened.file, opened.load), notes };
}
