import { join } from 'node:path';
import {
  CairnError,
  type CairnSettings,
  cairnStatePath,
  MEMORY_INSIGHTS_FILENAME,
  monotonicMs,
  type ParsedDocument,
  type ReviewState,
  randomUuid,
  withFileLock,
} from '@cairn/core';
import type { WorkspaceWriter } from '../store';
import { type MemoryRecord, type UnitPatch, type UnitPatchResult, unitContentHash } from '../units';
import type { ThreadHeadState } from '../working';
import { buildProposals, MAX_NEW_PER_KIND } from './build-proposals';
import { extractInsights, renderInsights } from './extract-insights';
import { appendAudit, decidedRecently, runEntry, writeDreams } from './maintenance-diary';
import { writeRegion } from './maintenance-files';
import { MaintenanceStore } from './maintenance-store';
import type { MaintenanceRun, Proposal, StaleUnit } from './maintenance-types';
import { modelInsights } from './model-insights';
import { checkDue, planState, writeScheduleState } from './schedule';
import { readWorkingSources } from './working-sources';

/** What maintenance needs of a project's memory (a Cairn fits). */
export interface MaintenanceMemory {
  readonly rootDir: string;
  readonly settings: CairnSettings;
  readonly writer: WorkspaceWriter;
  list(): Promise<MemoryRecord[]>;
  documents(): Promise<ParsedDocument[]>;
  readHead(): Promise<{ head: string }>;
  threads(): ThreadHeadState[];
  patchUnits(patch: UnitPatch): Promise<UnitPatchResult>;
  setReview(memoryId: string, review: ReviewState): Promise<unknown>;
}

export interface RunOptions {
  trigger?: MaintenanceRun['trigger'];
  now?: Date;
  /** Stale units found by the anchor check (the run proposes deprecations and re-anchors for them). */
  staleness?: (
    store: MaintenanceStore,
    now: Date,
  ) => Promise<{ stale: StaleUnit[]; proposals: Proposal[] }>;
  /** The environment a configured model's API key is read from. */
  env?: Record<string, string | undefined>;
}

export type RunOutcome =
  | { action: 'ran'; run: MaintenanceRun; proposals: Proposal[] }
  | { action: 'not-due'; nextDueAt: string };

export const maintenanceLockPath = (rootDir: string) =>
  join(cairnStatePath(rootDir), 'locks', 'maintenance.lock');

/** Open proposals whose units changed since: approving them would overwrite, so they become conflicts. */
function markConflicts(store: MaintenanceStore, units: readonly MemoryRecord[], now: Date): number {
  const open = store.list(['open']);
  if (open.length === 0) return 0;
  const byId = new Map(units.map((unit) => [unit.memoryId, unit]));
  const hashOf = (id: string) => {
    const unit = byId.get(id);
    return unit?.category && unit.review
      ? unitContentHash({ category: unit.category, review: unit.review, text: unit.text })
      : 'absent';
  };
  let conflicts = 0;
  for (const proposal of open) {
    const stale = Object.entries(proposal.patch.preconditions).some(
      ([id, hash]) => hashOf(id) !== hash,
    );
    if (!stale) continue;
    store.put({ ...proposal, state: 'conflict', decidedAt: now.toISOString(), decidedBy: 'run' });
    conflicts += 1;
  }
  return conflicts;
}

/**
 * Stores the proposals not known yet, at most MAX_NEW_PER_KIND of a kind
 * while that many are open; a rejected, approved or undone one is never
 * made again.
 */
function keepNew(store: MaintenanceStore, proposals: readonly Proposal[]): Proposal[] {
  const fresh: Proposal[] = [];
  const seen = new Set<string>();
  const open = new Map<string, number>();
  for (const p of store.list(['open'])) open.set(p.kind, (open.get(p.kind) ?? 0) + 1);
  for (const proposal of proposals) {
    if (seen.has(proposal.id)) continue;
    if ((open.get(proposal.kind) ?? 0) >= MAX_NEW_PER_KIND) continue;
    seen.add(proposal.id);
    const known = store.get(proposal.id);
    if (known && known.state !== 'conflict') continue;
    store.put(proposal);
    fresh.push(proposal);
    open.set(proposal.kind, (open.get(proposal.kind) ?? 0) + 1);
  }
  return fresh;
}

async function extractionRun(
  memory: MaintenanceMemory,
  store: MaintenanceStore,
  options: RunOptions,
  now: Date,
): Promise<{ run: MaintenanceRun; proposals: Proposal[] }> {
  const started = monotonicMs();
  const documents = await memory.documents();
  const sources = await readWorkingSources(memory, documents);
  const conflicts = markConflicts(store, sources.units, now);
  const staleness = options.staleness
    ? await options.staleness(store, now)
    : { stale: [], proposals: [] };
  const proposals = keepNew(store, [...buildProposals(sources, now), ...staleness.proposals]);
  const extracted = extractInsights(sources);
  const model = await modelInsights(memory.settings, extracted, options.env ?? process.env);
  const insights = [...model.insights, ...extracted];
  const rendered = renderInsights(insights);
  await writeRegion(memory.writer, MEMORY_INSIGHTS_FILENAME, rendered.body);
  const proposed: MaintenanceRun['proposed'] = {};
  for (const p of proposals) proposed[p.kind] = (proposed[p.kind] ?? 0) + 1;
  const run: MaintenanceRun = {
    runId: `R-${randomUuid().slice(0, 8)}`,
    startedAt: now.toISOString(),
    finishedAt: now.toISOString(),
    trigger: options.trigger ?? 'manual',
    examined: {
      units: sources.units.length,
      notes: sources.notes,
      threads: sources.threads.length,
      summaries: sources.summaries.length,
      digests: sources.digests.length,
      patterns: sources.patterns.length,
    },
    proposed,
    conflicts,
    insights: insights.length,
    pruned: { insights: rendered.dropped, audit: 0 },
    ...(model.usage ? { model: model.usage } : {}),
    ...(model.note ? { modelNote: model.note } : {}),
    ms: 0,
  };
  await writeDreams(memory.writer, store.list(['open']), decidedRecently(store), staleness.stale);
  run.ms = monotonicMs() - started;
  run.pruned.audit = await appendAudit(memory.writer, [runEntry(run, proposals)]);
  store.addRun(run);
  return { run, proposals };
}

/**
 * One extraction run: under the maintenance lock (a second run at the same
 * time waits, then finds nothing new: runs are idempotent), reads working
 * memory, marks proposals whose units changed as conflicts, stores the new
 * proposals, rewrites memory-insights.md and DREAMS.md's region, and adds
 * an audit entry. With `ifDue`, it first checks the schedule and runs only
 * when due. Nothing here edits a unit.
 */
export async function runMaintenance(
  memory: MaintenanceMemory,
  options: RunOptions & { ifDue?: boolean } = {},
): Promise<RunOutcome> {
  memory.writer.assertWritable('run maintenance');
  const now = options.now ?? new Date();
  const { rootDir, settings } = memory;
  return withFileLock<RunOutcome>(
    maintenanceLockPath(rootDir),
    async () => {
      if (options.ifDue) {
        const { due, state } = await checkDue(rootDir, settings, now);
        if (!due || !settings.insightExtractionEnabled)
          return { action: 'not-due', nextDueAt: state.nextDueAt };
      }
      const store = MaintenanceStore.open(rootDir);
      try {
        const result = await extractionRun(memory, store, options, now);
        await writeScheduleState(rootDir, await planState(settings, now, now));
        return { action: 'ran', ...result };
      } finally {
        store.close();
      }
    },
    { timeoutMs: 60_000, maxAgeMs: 120_000 },
  ).catch((error: unknown) => {
    if (CairnError.isInstance(error) && error.code === 'CONFLICT') {
      throw new CairnError('CONFLICT', 'Another maintenance run holds the lock', {
        hint: 'wait for it to finish (`cairn insights status`), then run again',
        cause: error,
      });
    }
    throw error;
  });
}
