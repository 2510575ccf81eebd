import type { CairnSettings } from '@cairn/core';
import type { ContextPackRequest } from './context-pack-request';
import { documentCandidates, type RecallMemoryFn } from './documents-plane';
import { storeRecentPatterns } from './history-patterns';
import { historyCandidates } from './history-plane';
import { longTermCandidates, type SearchMemoryFn } from './long-term-plane';
import { PACK_PLANES, type PackPlane } from './pack-types';
import type { PlaneGatherer, PlaneYield } from './plane-runner';
import type { PlanningSource } from './planning-graph';
import { planningCandidates } from './planning-plane';
import { withStaleMarks } from './stale-marks';
import { estimateCounter, type TokenCounter } from './token-estimate';

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
  request: ContextPackRequest,
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
function offReason(plane: PackPlane, request: ContextPackRequest, sources: PlaneSources) {
  if (sources.settings.memoryEnabled === false) return 'memory is off (memoryEnabled)';
  if (request.planes && !request.planes.includes(plane)) return 'not requested';
  if (switchedOff(plane, sources.settings.memory)) return `switched off (${SWITCH[plane]})`;
  return undefined;
}

/** The request's planes, in seed order, with their gatherers, shares and floors. */
export function planeDefinitions(
  request: ContextPackRequest,
  sources: PlaneSources,
): PlaneDefinition[] {
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
