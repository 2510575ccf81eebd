import {
  agentIdSchema,
  CairnError,
  type CairnSettings,
  lazySchema,
  parseInput,
  sessionKeySchema,
  threadKeySchema,
} from '@cairn/core';
import * as z from 'zod/mini';
import { BEADS_ID } from './beads-issue';
import { type ComposedPack, composePack, type PackInput } from './compose-pack';
import { escapePackItem, escapePackLabel } from './escape-pack-text';
import {
  PLANE_TIMEOUT_MS,
  type PlaneDefinition,
  type PlaneGatherer,
  type PlaneReport,
  type PlaneSources,
  planeDefinitions,
  runPlane,
} from './pack-planes';
import { PACK_PROFILE_NAMES, PACK_PROFILES, type PackProfileName } from './pack-profiles';
import { PACK_PLANES, type PackExclusion, type PackPlane } from './pack-types';
import type { HeadCandidate } from './pinned-items';
import type { PlanningSource } from './planning-graph';
import type { RecallMemoryFn, SearchMemoryFn } from './recall-planes';
import { queryVocabulary } from './relevance-terms';
import { estimateCounter, type TokenCounter } from './token-estimate';

/** Seed 004 §7: what a caller asks the retrieval gateway for. */
export const contextPackRequestSchema = lazySchema(() =>
  z.object({
    query: z.string().check(z.maxLength(20_000, 'query is at most 20000 characters')),
    agentId: agentIdSchema,
    threadKey: z.optional(threadKeySchema),
    /** The run the pack is for: a run id is its session key (its digest leads the history plane). */
    runRef: z.optional(sessionKeySchema),
    /**
     * Other threads relevant to `threadKey` (an explicit relevance signal,
     * seed 002 §6): their run digests join the thread's. Without it, a pack
     * for a thread reads no other thread's context.
     */
    relatedThreads: z.optional(
      z.array(threadKeySchema).check(z.maxLength(16, 'relatedThreads holds at most 16 threads')),
    ),
    /** A Beads issue id the run is linked to; never an option for `bd` (it starts with a letter). */
    planningRef: z.optional(
      z
        .string()
        .check(
          z.maxLength(256),
          z.regex(BEADS_ID, 'planningRef is a Beads issue id such as bd-a1b2'),
        ),
    ),
    /** Overrides `memory.contextBudgetTokens` for this request. */
    budgetTokens: z.optional(z.number().check(z.int(), z.gte(0), z.lte(1_000_000))),
    /** Only these planes; the others are reported `off` ("not requested"). */
    planes: z.optional(z.array(z.enum(PACK_PLANES))),
    /** The named profile the pack is built under (its planes, unless `planes` says otherwise). */
    profile: z.optional(z.enum(PACK_PROFILE_NAMES)),
  }),
);
export type ContextPackRequest = z.infer<typeof contextPackRequestSchema>;

export function parseContextPackRequest(value: unknown): ContextPackRequest {
  const request = parseInput(contextPackRequestSchema, value, 'context pack request');
  if (request.relatedThreads?.length && !request.threadKey) {
    throw new CairnError('INVALID_INPUT', 'relatedThreads needs threadKey', {
      hint: 'name the thread the related threads are relevant to (threadKey), or leave relatedThreads out',
    });
  }
  return request;
}

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
  /** The planes' time budget in ms, one for all or per plane; default the `memory.planeTimeoutMs` setting. */
  planeTimeoutMs?: number | Partial<Record<PackPlane, number>>;
  /** Replaces a plane's gatherer (tests; the hooks' shared stores). */
  gatherers?: Partial<Record<PackPlane, PlaneGatherer>>;
  /** Where the planning plane reads Beads: default `auto` (`bd` on PATH, else the export). */
  planningSource?: PlanningSource;
  /** Tokens of the turn spent outside the pack, off the top. */
  reservedTokens?: number;
  /**
   * Of the given candidate ids, those already injected this session epoch:
   * they are excluded as `already-shown` (the hooks; `cairn pack` shows all).
   */
  alreadyShown?: (ids: string[]) => ReadonlySet<string>;
  /** Pinned items (the memory head, the thread head), in the order they say things first. */
  heads?: readonly HeadCandidate[];
  /** The receipt the frame names: its id is a hash of `seed` and the pack's body. */
  receipt?: { seed: string };
}

/** Whether the project's recall ranks by meaning: an embedder that reads meaning is configured. */
export function recallsByMeaning(settings: CairnSettings): boolean {
  const provider = (settings as { embedder?: { provider?: unknown } }).embedder?.provider;
  return provider === 'openai' || provider === 'transformers';
}

/** The pack and its receipt. */
export interface ContextPack {
  query: string;
  agentId: string;
  threadKey?: string;
  runRef?: string;
  relatedThreads?: string[];
  planningRef?: string;
  /** The profile it was built under, when one was named. */
  profile?: PackProfileName;
  /** The rendered text, framed and escaped; '' when nothing was included. */
  text: string;
  /** Redacted, and escaped as the rendered text is: a caller may show them to a model as they are. */
  items: ComposedPack['items'];
  excluded: PackExclusion[];
  /** In plane order: planning, history, long-term, documents. */
  planes: PlaneReport[];
  budget: ComposedPack['budget'];
  /** The id the text's receipt line names, when it names one. */
  receiptId?: string;
}

/** Planes that do not run are switched off for the allocation too: the others share their budget. */
function effectiveSettings(
  settings: CairnSettings['memory'],
  planes: readonly PlaneDefinition[],
): CairnSettings['memory'] {
  const off = new Set(planes.filter((plane) => plane.off).map((plane) => plane.id));
  return {
    ...settings,
    ...(off.has('planning') ? { planning: 'off' as const } : {}),
    ...(off.has('history') ? { history: 'off' as const } : {}),
    ...(off.has('long-term') ? { longTerm: 'off' as const } : {}),
    ...(off.has('documents') ? { documentsShare: 0 } : {}),
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

/** The request with its profile's planes, unless it names planes itself. */
function withProfile(request: ContextPackRequest): ContextPackRequest {
  if (!request.profile || request.planes) return request;
  return { ...request, planes: [...PACK_PROFILES[request.profile].planes] };
}

interface Gathered {
  planes: PlaneReport[];
  candidates: PackInput[];
  excluded: PackExclusion[];
}

/** Runs each plane in its time budget (fail-open per `memory.failOpen`); already-shown ones left out. */
async function gather(
  definitions: readonly PlaneDefinition[],
  sources: ContextPackSources,
): Promise<Gathered> {
  const timeouts = sources.planeTimeoutMs;
  const timeoutMs = (plane: PackPlane) =>
    (typeof timeouts === 'number' ? timeouts : timeouts?.[plane]) ??
    sources.settings.memory.planeTimeoutMs ??
    PLANE_TIMEOUT_MS;
  const out: Gathered = { planes: [], candidates: [], excluded: [] };
  for (const plane of definitions) {
    if (!plane.gather) {
      out.planes.push({ plane: plane.id, status: 'off', reason: plane.off, ms: 0, candidates: 0 });
      continue;
    }
    const ran = await runPlane(plane.id, plane.gather, {
      timeoutMs: timeoutMs(plane.id),
      failOpen: sources.settings.memory.failOpen,
    });
    out.planes.push(ran.report);
    // Claimed ids are those of the escaped items a pack hands out.
    const shown = sources.alreadyShown?.(ran.yield.candidates.map((c) => escapePackLabel(c.id)));
    for (const candidate of ran.yield.candidates) {
      if (!shown?.has(escapePackLabel(candidate.id))) out.candidates.push(candidate);
      else out.excluded.push(alreadyShown(candidate));
    }
    out.excluded.push(...(ran.yield.excluded ?? []));
  }
  return out;
}

/**
 * The retrieval gateway, the one pack pipeline: the planes
 * (data: `planeDefinitions`) gather in order, each in its time budget
 * (fail-open per `memory.failOpen`); then `composePack` keeps what is
 * relevant to the query, pins the heads, says every fact once, and fits
 * the rest to the budget, rendering each item once. Deterministic for the
 * same inputs and stores, apart from the planes' `ms`.
 */
export async function retrieveContextPack(
  input: ContextPackRequest,
  sources: ContextPackSources,
): Promise<ContextPack> {
  const request = withProfile(parseContextPackRequest(input));
  const definitions = planeDefinitions(request, sources as PlaneSources);
  const gathered = await gather(definitions, sources);
  const floors = Object.fromEntries(definitions.map((plane) => [plane.id, plane.floor]));
  const composed = composePack(gathered.candidates, {
    counter: sources.counter ?? estimateCounter,
    settings: effectiveSettings(sources.settings.memory, definitions),
    ...(request.budgetTokens === undefined ? {} : { budgetTokens: request.budgetTokens }),
    ...(sources.reservedTokens ? { reservedTokens: sources.reservedTokens } : {}),
    relevance: {
      query: request.query,
      floors,
      byMeaning: recallsByMeaning(sources.settings),
      // Session start asks with the thread's state, a part a line: an item answering one part is relevant.
      parts: request.profile !== undefined && PACK_PROFILES[request.profile].query === 'thread',
      // The search widened the query (glossaries, word forms): the judge reads items the same way.
      vocabulary: await queryVocabulary(request.query, sources.rootDir),
    },
    ...(sources.heads ? { heads: sources.heads } : {}),
    frame: {
      ...(request.profile && PACK_PROFILES[request.profile].purpose
        ? { purpose: PACK_PROFILES[request.profile].purpose }
        : {}),
      ...(sources.receipt ? { receipt: sources.receipt } : {}),
    },
  });
  return {
    query: request.query,
    agentId: request.agentId,
    ...(request.threadKey ? { threadKey: request.threadKey } : {}),
    ...(request.runRef ? { runRef: request.runRef } : {}),
    ...(request.relatedThreads ? { relatedThreads: request.relatedThreads } : {}),
    ...(request.planningRef ? { planningRef: request.planningRef } : {}),
    ...(request.profile ? { profile: request.profile } : {}),
    text: composed.text,
    items: composed.items.map(escapePackItem),
    excluded: [...composed.excluded, ...gathered.excluded].map(escapeExclusion),
    planes: gathered.planes,
    budget: composed.budget,
    ...(composed.receiptId ? { receiptId: composed.receiptId } : {}),
  };
}
