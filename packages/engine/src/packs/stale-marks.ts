import { statSync } from 'node:fs';
import {
  type AnchorCheck,
  cachedAnchorChecks,
  maintenanceDatabasePath,
  readHeadCommit,
} from '../anchors';
import type { PackInput } from './pack-types';
import type { PlaneGatherer } from './plane-runner';

/**
 * Staleness shown where the agent reads a unit (docs/PACKS.md "Stale
 * units"): a long-term unit whose cited code changed since it was
 * anchored opens with `Code changed since <commit>:`, one whose code is
 * gone with `Possibly stale (<path> \`<symbol>\` is gone):`; the same
 * words end the item's reason, which the receipt keeps. Nothing is left
 * out for it (deprecated units already are): the agent weighs it.
 *
 * The states come from the anchor-check cache of the current HEAD (anchors/)
 * (`cachedAnchorChecks`: no git process). A pack reads it at most once,
 * and only when the plane has units and `.cairn/state/maintenance.db`
 * exists; a process keeps what it read per project until HEAD or the
 * database changes, so a warm hook server pays a few `stat` calls.
 */

/** What a unit's mark says, by its memory id. */
type Marks = ReadonlyMap<string, string>;

interface CachedMarks {
  key: string;
  marks: Marks;
}

/** Per project root, in this process. */
const cache = new Map<string, CachedMarks>();
/** Projects a long-lived process keeps marks for (the hook server holds several). */
const CACHED_PROJECTS = 32;

const shortCommit = (commit: string) => commit.slice(0, 7);

/** The mark of one check, or undefined when the unit needs none (fresh, moved, unverifiable). */
export function staleMark(check: AnchorCheck): string | undefined {
  const { anchor } = check;
  if (check.state === 'changed') return `Code changed since ${shortCommit(anchor.commit)}`;
  if (check.state !== 'deleted') return undefined;
  const cited = anchor.symbol ? `${anchor.path} \`${anchor.symbol}\`` : anchor.path;
  return `Possibly stale (${cited} is gone)`;
}

/** HEAD and the database's (and its WAL's) size and time: what the cached checks depend on. */
function cacheKey(rootDir: string): string | undefined {
  // The database first: a project no check ever ran in pays one `stat`.
  const db = maintenanceDatabasePath(rootDir);
  const main = statSync(db, { throwIfNoEntry: false });
  if (!main) return undefined;
  const head = readHeadCommit(rootDir);
  if (!head) return undefined;
  const wal = statSync(`${db}-wal`, { throwIfNoEntry: false });
  return [head, main.mtimeMs, main.size, wal?.mtimeMs ?? 0, wal?.size ?? 0].join(' ');
}

function readMarks(rootDir: string): Marks {
  const checks = cachedAnchorChecks(rootDir);
  const marks = new Map<string, string>();
  for (const [memoryId, check] of checks ?? []) {
    const mark = staleMark(check);
    if (mark) marks.set(memoryId, mark);
  }
  return marks;
}

/** The marks of a project's units at its current HEAD; empty when nothing was checked there. */
export function staleMarks(rootDir: string): Marks {
  let key: string | undefined;
  try {
    key = cacheKey(rootDir);
    if (!key) return new Map();
    const hit = cache.get(rootDir);
    if (hit?.key === key) return hit.marks;
    const marks = readMarks(rootDir);
    cache.delete(rootDir);
    if (cache.size >= CACHED_PROJECTS) cache.delete(cache.keys().next().value!);
    cache.set(rootDir, { key, marks });
    return marks;
  } catch {
    // A store that cannot be read (locked, corrupt) marks nothing: the pack fails open.
    return new Map();
  }
}

/** The long-term candidates, each stale unit with its mark on its opening line and in its reason. */
export function markStaleUnits(candidates: readonly PackInput[], rootDir: string): PackInput[] {
  if (!candidates.some((candidate) => candidate.provenance.kind === 'unit')) return [...candidates];
  const marks = staleMarks(rootDir);
  if (marks.size === 0) return [...candidates];
  return candidates.map((candidate) => {
    const mark = marks.get(candidate.id);
    if (!mark) return candidate;
    return { ...candidate, text: `${mark}: ${candidate.text}`, why: `${candidate.why}; ${mark}` };
  });
}

/** A long-term gatherer (the default one, or a caller's: the hooks') whose units carry their marks. */
export function withStaleMarks(gather: PlaneGatherer, rootDir: string): PlaneGatherer {
  return async () => {
    const found = await gather();
    return { ...found, candidates: markStaleUnits(found.candidates, rootDir) };
  };
}
