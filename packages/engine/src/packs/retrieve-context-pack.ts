import type { CairnSettings } from '@cairn/core';
import { type ComposedPack, composePack, type PackInput, planesOff } from './compose-pack';
import { type ContextPackRequest, parseContextPackRequest } from './context-pack-request';
import { documentCandidates, type RecallMemoryFn } from './documents-plane';
import { escapePackItem, escapePackLabel } from './escape-pack-text';
import { storeRecentPatterns } from './history-patterns';
import { historyCandidates } from './history-plane';
import { longTermCandidates, type SearchMemoryFn } from './long-term-plane';
import { PACK_PLANES, type PackExclusion, type PackPlane } from './pack-types';
import {
  PLANE_TIMEOUT_MS,
  type PlaneGatherer,
  type PlaneReport,
  type PlaneYield,
  runPlane,
} from './plane-runner';
import type { PlanningSource } from './planning-graph';
import { planningCandidates } from './planning-plane';
import { estimateCounter, type TokenCounter } from './token-counter';

/** What the gateway reads from: one project, its settings and its memory search. */
export interface ContextPackSources {
  rootDir: string;
  settings: CairnSettings;
  /** The project's memory search (`Cairn.search`, `MemorySearch.search`). */
  search: SearchMemoryFn;
  /** The project's recall (`Cairn.recall`): the documents plane reads the `documents` pool with it. */
  recall?: RecallMemoryFn;
  /** Default: the estimate (no module to load). */
  counter?: TokenCounter;
  env?: NodeJS.ProcessEnv;
  /** The planes' time budget in ms, one for all or per plane; default `PLANE_TIMEOUT_MS`. */
  planeTimeoutMs?: number | Partial<Record<PackPlane, number>>;
  /** Replaces a plane's gatherer (tests; issue 13's recall; the hooks' shared stores). */
  gatherers?: Partial<Record<PackPlane, PlaneGatherer>>;
  /** Where the planning plane reads Beads: default `auto` (`bd` on PATH, else the export). */
  planningSource?: PlanningSource;
  /** Tokens of the turn spent outside the planes (the hooks' head items), off the top. */
  reservedTokens?: number;
  /**
   * Of the given candidate ids, those already injected this session epoch:
   * they are excluded as `already-shown` (the hooks; `cairn pack` shows all).
   */
  alreadyShown?: (ids: string[]) => ReadonlySet<string>;
}

/** Seed 004 §7: the pack and its receipt. */
export interface ContextPack {
  query: string;
  agentId: string;
  threadKey?: string;
  runRef?: string;
  relatedThreads?: string[];
  planningRef?: string;
  /** The rendered text, framed and escaped; '' when nothing was included. */
  text: string;
  /** Redacted, and escaped as the rendered text is: a caller may show them to a model as they are. */
  items: ComposedPack['items'];
  excluded: PackExclusion[];
  /** In plane order: planning, history, long-term, documents. */
  planes: PlaneReport[];
  budget: ComposedPack['budget'];
}

const SWITCH: Record<PackPlane, string> = {
  planning: 'memory.planning',
  history: 'memory.history',
  'long-term': 'memory.longTerm',
  documents: 'memory.documentsShare',
};

/** Planes the request leaves out are switched off for the allocation too: the others share their budget. */
function effectiveSettings(
  settings: CairnSettings['memory'],
  wanted: ReadonlySet<PackPlane>,
): CairnSettings['memory'] {
  return {
    ...settings,
    ...(wanted.has('planning') ? {} : { planning: 'off' as const }),
    ...(wanted.has('history') ? {} : { history: 'off' as const }),
    ...(wanted.has('long-term') ? {} : { longTerm: 'off' as const }),
    ...(wanted.has('documents') ? {} : { documentsShare: 0 }),
  };
}

function defaultGatherers(
  request: ContextPackRequest,
  sources: ContextPackSources,
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

/** An exclusion's ids as the items' are escaped (a document id names a repository path). */
const escapeExclusion = (exclusion: PackExclusion): PackExclusion => ({
  ...exclusion,
  id: escapePackLabel(exclusion.id),
  ...(exclusion.duplicateOf ? { duplicateOf: escapePackLabel(exclusion.duplicateOf) } : {}),
});

const alreadyShown = (candidate: PackInput): PackExclusion => ({
  id: candidate.id,
  plane: candidate.plane,
  reason: 'already-shown',
  tokenCost: 0,
});

function offReason(
  plane: PackPlane,
  off: readonly PackPlane[],
  wanted: ReadonlySet<PackPlane>,
  enabled: boolean,
) {
  if (!enabled) return 'memory is off (memoryEnabled)';
  if (!wanted.has(plane)) return 'not requested';
  if (off.includes(plane)) return `switched off (${SWITCH[plane]})`;
  return undefined;
}

/**
 * The retrieval gateway (seed 004 §7): gathers the planes in order, each in
 * its time budget (fail-open per `memory.failOpen`), then composes one
 * pack under the budget with `composePack`. Deterministic for the same
 * inputs and stores, apart from the planes' `ms`.
 */
export async function retrieveContextPack(
  input: ContextPackRequest,
  sources: ContextPackSources,
): Promise<ContextPack> {
  const request = parseContextPackRequest(input);
  const memory = sources.settings.memory;
  const wanted = new Set<PackPlane>(request.planes ?? PACK_PLANES);
  const off = planesOff(memory);
  const gatherers = { ...defaultGatherers(request, sources), ...sources.gatherers };
  const timeouts = sources.planeTimeoutMs;
  const timeoutMs = (plane: PackPlane) =>
    (typeof timeouts === 'number' ? timeouts : timeouts?.[plane]) ?? PLANE_TIMEOUT_MS;
  const planes: PlaneReport[] = [];
  const candidates: PackInput[] = [];
  const gatheredExclusions: PackExclusion[] = [];
  for (const plane of PACK_PLANES) {
    const gather = gatherers[plane];
    const reason =
      offReason(plane, off, wanted, sources.settings.memoryEnabled !== false) ??
      (gather ? undefined : 'not built yet');
    if (reason || !gather) {
      planes.push({
        plane,
        status: 'off',
        reason: reason ?? 'not built yet',
        ms: 0,
        candidates: 0,
      });
      continue;
    }
    const ran = await runPlane(plane, gather, {
      timeoutMs: timeoutMs(plane),
      failOpen: memory.failOpen,
    });
    planes.push(ran.report);
    // Claimed ids are those of the escaped items a pack hands out.
    const shown = sources.alreadyShown?.(ran.yield.candidates.map((c) => escapePackLabel(c.id)));
    for (const candidate of ran.yield.candidates) {
      if (!shown?.has(escapePackLabel(candidate.id))) candidates.push(candidate);
      else gatheredExclusions.push(alreadyShown(candidate));
    }
    gatheredExclusions.push(...(ran.yield.excluded ?? []));
  }
  const composed = composePack(candidates, {
    counter: sources.counter ?? estimateCounter,
    settings: effectiveSettings(memory, wanted),
    ...(request.budgetTokens === undefined ? {} : { budgetTokens: request.budgetTokens }),
    ...(sources.reservedTokens ? { reservedTokens: sources.reservedTokens } : {}),
  });
  return {
    query: request.query,
    agentId: request.agentId,
    ...(request.threadKey ? { threadKey: request.threadKey } : {}),
    ...(request.runRef ? { runRef: request.runRef } : {}),
    ...(request.relatedThreads ? { relatedThreads: request.relatedThreads } : {}),
    ...(request.planningRef ? { planningRef: request.planningRef } : {}),
    text: composed.text,
    items: composed.items.map(escapePackItem),
    excluded: [...composed.excluded, ...gatheredExclusions].map(escapeExclusion),
    planes,
    budget: composed.budget,
  };
}
