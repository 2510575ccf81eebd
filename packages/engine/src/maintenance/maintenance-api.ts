import { anchorText, checkAllAnchors, stalenessProposals, staleUnits } from './check-anchors';
import {
  approveProposal,
  type DecisionContext,
  rejectProposal,
  resolveProposalId,
  undoProposal,
} from './decide-proposal';
import { openGitObjects } from './git-objects';
import { MaintenanceStore } from './maintenance-store';
import type {
  AnchorCheck,
  MaintenanceRun,
  Proposal,
  ProposalDecisionResult,
  ProposalState,
  StaleUnit,
} from './maintenance-types';
import { type MaintenanceMemory, type RunOutcome, runMaintenance } from './run-maintenance';
import { readScheduleState, type ScheduleState } from './schedule';

/**
 * The maintenance API the CLI (`cairn review`, `cairn insights`), the MCP
 * tools and the dashboard's review inbox call: list proposals with their
 * diffs, approve / reject / undo one, list stale units, run an extraction.
 * Each call opens maintenance.db for its own duration (per machine state).
 */
export interface Maintenance {
  /** Proposals, open ones by default. */
  proposals(states?: readonly ProposalState[]): Promise<Proposal[]>;
  proposal(id: string): Promise<Proposal>;
  approve(id: string, options?: DecisionOptions): Promise<ProposalDecisionResult>;
  reject(id: string, options?: DecisionOptions): Promise<ProposalDecisionResult>;
  undo(id: string, options?: DecisionOptions): Promise<ProposalDecisionResult>;
  /** Units whose cited code moved, changed or is gone at the current HEAD (checked once per HEAD). */
  staleUnits(): Promise<StaleUnit[]>;
  /** Every anchor's check at HEAD, fresh and unverifiable ones included. */
  anchorChecks(): Promise<AnchorCheck[]>;
  run(options?: {
    ifDue?: boolean;
    now?: Date;
    trigger?: MaintenanceRun['trigger'];
  }): Promise<RunOutcome>;
  status(): Promise<MaintenanceStatus>;
}

export interface DecisionOptions {
  /** Who decides: `cli`, `mcp`, `dashboard`. */
  by?: string;
  note?: string;
  now?: Date;
}

export interface MaintenanceStatus {
  enabled: boolean;
  schedule: string;
  minIntervalMs: number;
  /** The plan the last check or run wrote, when there is one. */
  plan?: ScheduleState;
  lastRun?: MaintenanceRun;
  open: number;
}

export interface MaintenanceOptions {
  env?: Record<string, string | undefined>;
  now?: () => Date;
}

function withStore<T>(rootDir: string, use: (store: MaintenanceStore) => Promise<T>): Promise<T> {
  const store = MaintenanceStore.open(rootDir);
  return use(store).finally(() => store.close());
}

export function openMaintenance(
  memory: MaintenanceMemory,
  options: MaintenanceOptions = {},
): Maintenance {
  const { rootDir } = memory;
  const clock = options.now ?? (() => new Date());
  const git = () => openGitObjects(rootDir, options.env ?? process.env);

  async function checks(store: MaintenanceStore): Promise<AnchorCheck[]> {
    const objects = await git();
    if (!objects) return [];
    return checkAllAnchors(objects, store, await memory.list(), clock());
  }

  async function decision(
    decide: (ctx: DecisionContext, id: string) => Promise<ProposalDecisionResult>,
    id: string,
    opts: DecisionOptions = {},
  ) {
    memory.writer.assertWritable('decide a proposal');
    return withStore(rootDir, async (store) => {
      const objects = await git();
      const head = objects ? await objects.head() : undefined;
      return decide(
        {
          memory,
          store,
          now: opts.now ?? clock(),
          by: opts.by ?? 'cli',
          ...(opts.note ? { note: opts.note } : {}),
          ...(objects && head
            ? {
                anchor: (memoryId: string, text: string) =>
                  anchorText(objects, head, memoryId, text),
              }
            : {}),
          stale: async () => staleUnits(await checks(store), await memory.list()),
        },
        id,
      );
    });
  }

  return {
    proposals: (states = ['open']) => withStore(rootDir, async (store) => store.list(states)),
    proposal: (id) =>
      withStore(rootDir, async (store) => {
        const found = store.get(resolveProposalId(store, id));
        if (found) {
          const { undo: _undo, ...proposal } = found;
          return proposal;
        }
        // The same typed error as a decision on an unknown id.
        return rejectProposal({ memory, store, now: clock(), by: 'read' }, id).then(
          (r) => r.proposal,
        );
      }),
    approve: (id, opts) => decision(approveProposal, id, opts),
    reject: (id, opts) => decision(rejectProposal, id, opts),
    undo: (id, opts) => decision(undoProposal, id, opts),
    anchorChecks: () => withStore(rootDir, checks),
    async staleUnits() {
      // No repository (or no commit yet): nothing is checked, and no state is created.
      const objects = await git();
      if (!objects || !(await objects.head())) return [];
      return withStore(rootDir, async (store) =>
        staleUnits(await checks(store), await memory.list()),
      );
    },
    run: (opts = {}) =>
      runMaintenance(memory, {
        ...opts,
        ...(options.env ? { env: options.env } : {}),
        now: opts.now ?? clock(),
        staleness: async (store, now) => {
          const objects = await git();
          if (!objects) return { stale: [], proposals: [] };
          const units = await memory.list();
          const found = await checkAllAnchors(objects, store, units, now);
          const stale = staleUnits(found, units);
          return { stale, proposals: stalenessProposals(stale, units, found, now) };
        },
      }),
    async status() {
      const { settings } = memory;
      const store = MaintenanceStore.openIfAny(rootDir);
      try {
        const plan = readScheduleState(rootDir);
        const lastRun = store?.runs(1)[0];
        return {
          enabled: settings.insightExtractionEnabled,
          schedule: settings.insightExtractionSchedule,
          minIntervalMs: settings.insightExtractionMinIntervalMs,
          ...(plan ? { plan } : {}),
          ...(lastRun ? { lastRun } : {}),
          open: store?.list(['open']).length ?? 0,
        };
      } finally {
        store?.close();
      }
    },
  };
}
