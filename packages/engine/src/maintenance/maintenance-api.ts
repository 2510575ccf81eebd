import type { AnchorCheck } from '../anchors';
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

/** What every maintenance call works from: the project's memory, its clock and its environment. */
interface MaintenanceState {
  memory: MaintenanceMemory;
  rootDir: string;
  clock: () => Date;
  env: Record<string, string | undefined> | undefined;
}

function withStore<T>(rootDir: string, use: (store: MaintenanceStore) => Promise<T>): Promise<T> {
  const store = MaintenanceStore.open(rootDir);
  return use(store).finally(() => store.close());
}

function gitObjects(state: MaintenanceState) {
  return openGitObjects(state.rootDir, state.env ?? process.env);
}

async function checks(state: MaintenanceState, store: MaintenanceStore): Promise<AnchorCheck[]> {
  const objects = await gitObjects(state);
  if (!objects) return [];
  return checkAllAnchors(objects, store, await state.memory.list(), state.clock());
}

async function decision(
  state: MaintenanceState,
  decide: (ctx: DecisionContext, id: string) => Promise<ProposalDecisionResult>,
  id: string,
  opts: DecisionOptions = {},
): Promise<ProposalDecisionResult> {
  const { memory } = state;
  memory.writer.assertWritable('decide a proposal');
  return withStore(state.rootDir, async (store) => {
    const objects = await gitObjects(state);
    const head = objects ? await objects.head() : undefined;
    return decide(
      {
        memory,
        store,
        now: opts.now ?? state.clock(),
        by: opts.by ?? 'cli',
        ...(opts.note ? { note: opts.note } : {}),
        ...(objects && head
          ? {
              anchor: (memoryId: string, text: string) => anchorText(objects, head, memoryId, text),
            }
          : {}),
        stale: async () => staleUnits(await checks(state, store), await memory.list()),
      },
      id,
    );
  });
}

function readProposal(state: MaintenanceState, id: string): Promise<Proposal> {
  return withStore(state.rootDir, async (store) => {
    const found = store.get(resolveProposalId(store, id));
    if (found) {
      const { undo: _undo, ...proposal } = found;
      return proposal;
    }
    // The same typed error as a decision on an unknown id.
    const context = { memory: state.memory, store, now: state.clock(), by: 'read' };
    return rejectProposal(context, id).then((r) => r.proposal);
  });
}

async function staleUnitsNow(state: MaintenanceState): Promise<StaleUnit[]> {
  // No repository (or no commit yet): nothing is checked, and no state is created.
  const objects = await gitObjects(state);
  if (!objects || !(await objects.head())) return [];
  return withStore(state.rootDir, async (store) =>
    staleUnits(await checks(state, store), await state.memory.list()),
  );
}

function runOnce(
  state: MaintenanceState,
  opts: Parameters<Maintenance['run']>[0] = {},
): Promise<RunOutcome> {
  const { memory } = state;
  return runMaintenance(memory, {
    ...opts,
    ...(state.env ? { env: state.env } : {}),
    now: opts.now ?? state.clock(),
    staleness: async (store, now) => {
      const objects = await gitObjects(state);
      if (!objects) return { stale: [], proposals: [] };
      const units = await memory.list();
      const found = await checkAllAnchors(objects, store, units, now);
      const stale = staleUnits(found, units);
      return { stale, proposals: stalenessProposals(stale, units, found, now) };
    },
  });
}

async function maintenanceStatus(state: MaintenanceState): Promise<MaintenanceStatus> {
  const { settings } = state.memory;
  const store = MaintenanceStore.openIfAny(state.rootDir);
  try {
    const plan = readScheduleState(state.rootDir);
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
}

export function openMaintenance(
  memory: MaintenanceMemory,
  options: MaintenanceOptions = {},
): Maintenance {
  const state: MaintenanceState = {
    memory,
    rootDir: memory.rootDir,
    clock: options.now ?? (() => new Date()),
    env: options.env,
  };
  return {
    proposals: (states = ['open']) => withStore(state.rootDir, async (store) => store.list(states)),
    proposal: (id) => readProposal(state, id),
    approve: (id, opts) => decision(state, approveProposal, id, opts),
    reject: (id, opts) => decision(state, rejectProposal, id, opts),
    undo: (id, opts) => decision(state, undoProposal, id, opts),
    anchorChecks: () => withStore(state.rootDir, (store) => checks(state, store)),
    staleUnits: () => staleUnitsNow(state),
    run: (opts) => runOnce(state, opts),
    status: () => maintenanceStatus(state),
  };
}
