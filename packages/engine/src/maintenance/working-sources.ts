import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  cairnStatePath,
  MEMORY_AUDIT_FILENAME,
  MEMORY_DREAMS_FILENAME,
  MEMORY_INSIGHTS_FILENAME,
  MEMORY_THREADS_DIR,
  type ParsedDocument,
} from '@cairn/core';
import {
  type FixPattern,
  listFixPatterns,
  recentRunDigests,
  type StoredRunDigest,
} from '../history';
import type { TemporalNode } from '../lineage';
import { openLineageStore } from '../lineage';
import { openDatabase } from '../store';
import type { MemoryRecord } from '../units';
import type { ThreadHeadState } from '../working';

/**
 * What an extraction run reads (seed 000 §3.8.5): the units and
 * notes of the daily files, MEMORY.md's managed region, thread heads,
 * session summaries, run digests, fix patterns, and which units were
 * injected when. Never its own output: DREAMS.md, memory-insights.md and
 * memory-audit.md are left out, and so are thread heads' rendered files.
 */
export interface WorkingSources {
  units: MemoryRecord[];
  /** RAW paragraphs of daily files and MEMORY.md outside its region. */
  notes: number;
  head: string;
  threads: ThreadHeadState[];
  summaries: TemporalNode[];
  digests: StoredRunDigest[];
  patterns: FixPattern[];
  /** memoryId -> the newest session start that injected it. */
  lastInjected: Map<string, string>;
}

/** Files a run never reads: what maintenance writes, and rendered views. */
export function isMaintenanceOutput(path: string): boolean {
  return (
    path === MEMORY_DREAMS_FILENAME ||
    path === MEMORY_INSIGHTS_FILENAME ||
    path === MEMORY_AUDIT_FILENAME ||
    path.startsWith(`${MEMORY_THREADS_DIR}/`)
  );
}

/** What a run needs of the project's memory (a Cairn fits). */
export interface SourceMemory {
  rootDir: string;
  settings: { memory: { namespace: string } };
  list(): Promise<MemoryRecord[]>;
  readHead(): Promise<{ head: string }>;
  threads(): ThreadHeadState[];
}

/** Sessions read per agent; digests per agent. Bounded so a run over a year of history stays small. */
const SUMMARIES_READ = 200;
const DIGESTS_READ = 200;

function lineageReads(rootDir: string): { summaries: TemporalNode[]; agents: string[] } {
  if (!existsSync(join(cairnStatePath(rootDir), 'lineage.db')))
    return { summaries: [], agents: [] };
  const store = openLineageStore(rootDir);
  try {
    const agents = [...new Set(store.nodeHeads('session_summary').map((head) => head.agentId))];
    const summaries = agents.flatMap((agentId) =>
      store.listNodes({
        agentId,
        kinds: ['session_summary'],
        order: 'desc',
        limit: SUMMARIES_READ,
      }),
    );
    return { summaries, agents };
  } finally {
    store.close();
  }
}

/** The newest session start that injected each item (heads.db), when the project has one. */
function injectionTimes(rootDir: string): Map<string, string> {
  const path = join(cairnStatePath(rootDir), 'heads.db');
  const times = new Map<string, string>();
  if (!existsSync(path)) return times;
  const db = openDatabase(path);
  try {
    const rows = db
      .prepare(
        `SELECT i.item_id AS id, MAX(s.started_at) AS at FROM injections i
         JOIN sessions s ON s.agent_id = i.agent_id AND s.session_key = i.session_key
         GROUP BY i.item_id`,
      )
      .all() as { id: string; at: string }[];
    for (const row of rows) times.set(row.id, row.at);
  } catch {
    // An older heads.db without these tables: no usage known, nothing proposed for it.
  } finally {
    db.close();
  }
  return times;
}

export async function readWorkingSources(
  memory: SourceMemory,
  documents: readonly ParsedDocument[],
): Promise<WorkingSources> {
  const { rootDir } = memory;
  const units = (await memory.list()).filter(
    (unit) => unit.kind === 'UNIT' && !isMaintenanceOutput(unit.path),
  );
  const notes = documents
    .filter((document) => !isMaintenanceOutput(document.path))
    .reduce((sum, document) => sum + document.raw.length, 0);
  const { summaries, agents } = lineageReads(rootDir);
  const digests = agents.length
    ? recentRunDigests(rootDir, { agentIds: agents, limit: DIGESTS_READ })
    : [];
  const patterns = listFixPatterns(rootDir, {
    namespace: memory.settings.memory.namespace,
    limit: 1000,
  });
  return {
    units,
    notes,
    head: (await memory.readHead()).head,
    threads: memory.threads(),
    summaries,
    digests,
    patterns,
    lastInjected: injectionTimes(rootDir),
  };
}
