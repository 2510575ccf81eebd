import { CairnError, type CairnSettings, isUnsafePathError, monotonicMs } from '@cairn/core';
import type { PackInput } from './compose-pack';
import { historyCandidates } from './history-plane';
import { storeRecentPatterns } from './history-runs';
import { PACK_PLANES, type PackExclusion, type PackPlane } from './pack-types';
import type { PlanningSource } from './planning-graph';
import { planningCandidates } from './planning-plane';
import {
  documentCandidates,
  longTermCandidates,
  markStaleUnits,
  type RecallMemoryFn,
  type SearchMemoryFn,
} from './recall-planes';
import { estimateCounter, type TokenCounter } from './token-estimate';

/**
 * What the planes read of a request: a parsed `ContextPackRequest` is
 * one. Declared here, so the planes import nothing of the gateway that
 * runs them (retrieve-context-pack.ts).
 */
export interface PlaneRequest {
  query: string;
  agentId: string;
  threadKey?: string;
  runRef?: string;
  relatedThreads?: string[];
  planningRef?: string;
  planes?: PackPlane[];
}

/**
 * The planes of a pack as data: each its id, its gatherer, its share of the
 * budget and the floor its ranker's scores must clear (relative to its
 * best candidate; 0 where the scores are Cairn's own tallies and the
 * shared terms decide). A plane that is off, empty or failed hands its
 * share to the others (`allocateBudget`).
 */
export interface PlaneDefinition {
  id: PackPlane;
  /** Undefined with `off` set when the plane cannot or may not run. */
  gather?: PlaneGatherer;
  /** Why it does not run: switched off, not in the profile, not requested. */
  off?: string;
  share: number;
  floor: number;
}

/** The ranker's floor per plane, relative to the plane's best candidate (docs/PACKS.md). */
export const RELEVANCE_FLOORS: Readonly<Record<PackPlane, number>> = {
  planning: 0,
  history: 0,
  'long-term': 0.6,
  documents: 0.6,
};

/** What the planes read from (a subset of `ContextPackSources`). */
export interface PlaneSources {
  rootDir: string;
  settings: CairnSettings;
  search: SearchMemoryFn;
  recall?: RecallMemoryFn;
  counter?: TokenCounter;
  env?: NodeJS.ProcessEnv;
  planningSource?: PlanningSource;
  gatherers?: Partial<Record<PackPlane, PlaneGatherer>>;
}

const SWITCH: Record<PackPlane, string> = {
  planning: 'memory.planning',
  history: 'memory.history',
  'long-term': 'memory.longTerm',
  documents: 'memory.documentsShare',
};

function defaultGatherers(
  request: PlaneRequest,
  sources: PlaneSources,
): Record<PackPlane, PlaneGatherer | undefined> {
  return {
    planning: async (): Promise<PlaneYield> => {
      const result = await planningCandidates({
        projectRoot: sources.rootDir,
        ...(request.planningRef ? { planningRef: request.planningRef } : {}),
        mentions: [request.query],
        ...(sources.env ? { env: sources.env } : {}),
        ...(sources.planningSource ? { source: sources.planningSource } : {}),
        counter: sources.counter ?? estimateCounter,
      });
      const note = result.notes.join('; ');
      return { candidates: result.items, ...(note ? { note } : {}) };
    },
    history: () => {
      const result = historyCandidates({
        rootDir: sources.rootDir,
        agentId: request.agentId,
        query: request.query,
        ...(request.threadKey ? { threadKey: request.threadKey } : {}),
        ...(request.runRef ? { runRef: request.runRef } : {}),
        ...(request.relatedThreads ? { relatedThreads: request.relatedThreads } : {}),
        recentPatterns: storeRecentPatterns,
        namespace: sources.settings.memory.namespace,
      });
      return {
        candidates: result.candidates,
        excluded: result.otherThreads,
        ...(result.note ? { note: result.note } : {}),
      };
    },
    'long-term': async () => ({
      candidates: await longTermCandidates(sources.search, request.query, request.agentId),
    }),
    documents: sources.recall
      ? async () => ({
          candidates: await documentCandidates(sources.recall!, request.query, request.agentId),
        })
      : undefined,
  };
}

const SHARE: Record<PackPlane, keyof CairnSettings['memory']> = {
  planning: 'planningShare',
  history: 'historyShare',
  'long-term': 'longTermShare',
  documents: 'documentsShare',
};

function switchedOff(plane: PackPlane, memory: CairnSettings['memory']): boolean {
  if (plane === 'planning') return memory.planning === 'off';
  if (plane === 'history') return memory.history === 'off';
  if (plane === 'long-term') return memory.longTerm === 'off';
  return memory.documentsShare <= 0;
}

/** Why a plane does not run for this request, or undefined when it runs. */
function offReason(plane: PackPlane, request: PlaneRequest, sources: PlaneSources) {
  if (sources.settings.memoryEnabled === false) return 'memory is off (memoryEnabled)';
  if (request.planes && !request.planes.includes(plane)) return 'not requested';
  if (switchedOff(plane, sources.settings.memory)) return `switched off (${SWITCH[plane]})`;
  return undefined;
}

/** A long-term gatherer (the default one, or a caller's: the hooks') whose units carry their marks. */
export function withStaleMarks(gather: PlaneGatherer, rootDir: string): PlaneGatherer {
  return async () => {
    const found = await gather();
    return { ...found, candidates: markStaleUnits(found.candidates, rootDir) };
  };
}

/** The request's planes, in seed order, with their gatherers, shares and floors. */
export function planeDefinitions(request: PlaneRequest, sources: PlaneSources): PlaneDefinition[] {
  const gatherers = { ...defaultGatherers(request, sources), ...sources.gatherers };
  const longTerm = gatherers['long-term'];
  if (longTerm) gatherers['long-term'] = withStaleMarks(longTerm, sources.rootDir);
  return PACK_PLANES.map((id) => {
    const share = Number(sources.settings.memory[SHARE[id]]);
    const off =
      offReason(id, request, sources) ??
      (gatherers[id] ? undefined : 'no recall in this caller: it reads no documents');
    const floor = RELEVANCE_FLOORS[id];
    return off ? { id, off, share, floor } : { id, gather: gatherers[id]!, share, floor };
  });
}

/** What one plane gathered before the budget. */
export interface PlaneYield {
  candidates: PackInput[];
  /** Considered and left out by the plane itself (e.g. other threads). */
  excluded?: PackExclusion[];
  /** Something the user should hear about the plane (no thread given, no Beads export). */
  note?: string;
}

export type PlaneGatherer = () => Promise<PlaneYield> | PlaneYield;

/** Seed 004 §7: each plane says whether it ran, and why not. */
export interface PlaneReport {
  plane: PackPlane;
  status: 'ok' | 'off' | 'failed';
  reason?: string;
  /** Wall time the plane took, in ms (0 when off). */
  ms: number;
  /** Candidates it gathered. */
  candidates: number;
}

/**
 * The time budget of each plane, in ms, when the caller gives none. A plane
 * past it contributes nothing and is reported `failed`. Synchronous work
 * (SQLite reads) cannot be interrupted: it is measured and dropped after.
 */
export const PLANE_TIMEOUT_MS = 2000;

class PlaneTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PlaneTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one plane inside its time budget. With `failOpen` a plane that
 * throws or runs late yields nothing and is reported `failed`; without it
 * the error is thrown as a CairnError (a CairnError from the plane as is,
 * anything else as BACKEND_UNAVAILABLE naming the plane). A link under
 * `.cairn/` is thrown either way: a project that ships one gets no pack
 * at all (a hook injects nothing), not a pack built around it.
 */
export async function runPlane(
  plane: PackPlane,
  gather: PlaneGatherer,
  options: { timeoutMs: number; failOpen: boolean },
): Promise<{ report: PlaneReport; yield: PlaneYield }> {
  const started = monotonicMs();
  const elapsed = () => Math.round(monotonicMs() - started);
  try {
    const result = await withTimeout(Promise.resolve().then(gather), options.timeoutMs);
    if (elapsed() > options.timeoutMs) throw new PlaneTimeout();
    const report: PlaneReport = {
      plane,
      status: 'ok',
      ms: elapsed(),
      candidates: result.candidates.length,
      ...(result.note ? { reason: result.note } : {}),
    };
    return { report, yield: result };
  } catch (error) {
    if (isUnsafePathError(error)) throw error;
    const late = error instanceof PlaneTimeout;
    const reason = late
      ? `exceeded its time budget of ${options.timeoutMs} ms`
      : `threw: ${message(error)}`;
    if (!options.failOpen) {
      if (CairnError.isInstance(error)) throw error;
      throw new CairnError(
        'BACKEND_UNAVAILABLE',
        `The ${plane} plane of the context pack ${reason}`,
        {
          ...(late ? {} : { cause: error }),
          hint: 'set memory.failOpen to true to build the pack without it, or switch the plane off',
          details: { plane, timeoutMs: options.timeoutMs },
        },
      );
    }
    return {
      report: { plane, status: 'failed', reason, ms: elapsed(), candidates: 0 },
      yield: { candidates: [] },
    };
  }
}
