import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MEMORY_WORKSPACE_PATH } from '@cairn/core';
import {
  type ContextPack,
  documentCandidates,
  estimateCounter,
  type HeadCandidate,
  historyCandidates,
  longTermCandidates,
  PACK_PROFILES,
  type PackExclusion,
  type PackInput,
  type PackPlane,
  type PackProfile,
  type PackProfileName,
  type PlaneGatherer,
  type PlaneYield,
  type PlanningSource,
  queryVocabulary,
  RELEVANCE_FLOORS,
  recallsByMeaning,
  relevantCandidates,
  retrieveContextPack,
  storeRecentPatterns,
} from '../packs';
import { gitBranch, threadHeadFile } from '../store';
import {
  HEAD_SHARES,
  MEMORY_HEAD_FILE,
  MEMORY_HEAD_ID,
  memoryHeadText,
  threadHeadId,
  threadHeadText,
} from './head-items';
import { currentHeadRegion } from './head-render';
import type { SessionRecord } from './head-store';
import { GLOBAL_HEAD, LOCAL_HEAD } from './head-writer';
import type { LifecycleParts } from './lifecycle-parts';
import { withoutUnknownLineage } from './team-head';

/**
 * One profile's pack for one session, as the hooks inject it and `cairn
 * pack --profile` shows it (docs/PACKS.md "Profiles"): the profile says
 * which heads are pinned, which planes run, where the query comes from
 * and how much history is read; this file turns the session's state into
 * those inputs and hands them to `retrieveContextPack`. It writes nothing:
 * claiming and storing the receipt are the injection's (`injectPack`, lifecycle.ts).
 */

/** The request's query is capped by its schema; a long prompt is cut to it. */
const MAX_QUERY_CHARS = 20_000;

/** Branch names that say nothing about the work (the default branch, no branch). */
const GENERIC_BRANCHES = new Set(['main', 'master', 'trunk', 'develop', 'detached', 'none']);

export interface ProfilePackRequest {
  profile: PackProfileName;
  session: SessionRecord;
  /** The prompt (prompt-submit), the failure's error text (post-tool). */
  input?: string;
  /** Candidates the event itself brings (post-tool: the fix of the failure it follows). */
  history?: PackInput[];
}

export interface ProfilePack {
  pack: ContextPack;
  profile: PackProfile;
}

/** The branch, as words for a query (`feat/bd-12-login`), unless it is a generic one. */
function branchTopic(cwd: string): string {
  const branch = gitBranch(cwd);
  return GENERIC_BRANCHES.has(branch) ? '' : branch;
}

/** The profile's query: its input, or the thread's state and a branch that names the work. */
function queryOf(p: LifecycleParts, profile: PackProfile, request: ProfilePackRequest): string {
  if (profile.query === 'input') return (request.input ?? '').slice(0, MAX_QUERY_CHARS);
  const { session } = request;
  const thread = p.heads().threads.getThread(session.agentId, session.threadKey);
  return (
    [
      branchTopic(session.cwd || p.ctx.rootDir),
      thread?.status,
      thread?.nextAction,
      ...(thread?.openLoops ?? []),
    ]
      .filter(Boolean)
      // One part a line: relevance judges each (an item answering the next action is relevant).
      .join('\n')
      .slice(0, MAX_QUERY_CHARS)
  );
}

/**
 * The memory head to inject: this clone's personal head (heads.db), else
 * (no session of this clone has ended yet) the region of MEMORY.md, less
 * the lineage ids this clone cannot expand: a teammate's committed head
 * names nodes of their lineage, which are no drill-down target here.
 */
async function memoryHeadRegion(p: LifecycleParts, from: 'file' | 'state'): Promise<string> {
  const leases = p.heads().leases;
  const local = leases.lastRendered(LOCAL_HEAD.agentId, LOCAL_HEAD.scope);
  if (local !== undefined) return local;
  const region =
    from === 'state'
      ? (leases.lastRendered(GLOBAL_HEAD.agentId, GLOBAL_HEAD.scope) ?? '')
      : (currentHeadRegion((await p.ctx.memory.readHead()).content) ?? '');
  return withoutUnknownLineage(region, (ids) => p.heads().threads.knownNodes(ids));
}

/** The thread head first (the more specific says a fact first), then the memory head. */
async function headCandidates(
  p: LifecycleParts,
  session: SessionRecord,
  profile: PackProfile,
): Promise<HeadCandidate[]> {
  if (profile.heads === 'none') return [];
  const region = await memoryHeadRegion(p, profile.heads);
  const thread = p.heads().threads.getThread(session.agentId, session.threadKey);
  const heads: HeadCandidate[] = [];
  if (thread) {
    heads.push({
      id: threadHeadId(session.threadKey),
      name: `thread ${session.threadKey}`,
      text: threadHeadText(thread),
      source: `thread head of ${session.threadKey} (Tier 2)`,
      file: `${MEMORY_WORKSPACE_PATH}/${threadHeadFile(session.agentId, session.threadKey)}`,
      why: `the head of this thread (${session.threadKey})`,
      share: HEAD_SHARES.thread,
    });
  }
  if (region.trim()) {
    heads.push({
      id: MEMORY_HEAD_ID,
      name: 'memory',
      text: memoryHeadText(region),
      source: 'memory head (Tier 1)',
      file: MEMORY_HEAD_FILE,
      why: 'the project memory head',
      share: HEAD_SHARES.memory,
    });
  }
  return heads;
}

/** On the hook path `bd` runs only when `memory.planning` is `bd`, else the `.beads/` export is read. */
function planningSource(p: LifecycleParts): PlanningSource | 'none' {
  if (p.ctx.settings.memory.planning === 'bd') return 'auto';
  const env = p.ctx.env ?? process.env;
  if (!existsSync(join(p.ctx.rootDir, '.beads')) && !env.BEADS_DIR) return 'none';
  return 'export';
}

/** The thread's history: nothing to read when the nodes its head names were all shown this epoch. */
function historyGatherer(
  p: LifecycleParts,
  request: ProfilePackRequest,
  profile: PackProfile,
  query: string,
): PlaneGatherer {
  const { session } = request;
  return (): PlaneYield => {
    if (request.history) return { candidates: request.history };
    const newest = p.heads().threads.getThread(session.agentId, session.threadKey)?.lineage ?? [];
    const recent = newest.slice(0, profile.historyNodes);
    const shown = profile.claim ? p.heads().sessions.injected(session, recent).size : 0;
    if (recent.length > 0 && shown === recent.length) {
      return { candidates: [], note: 'nothing new in this thread since it was shown' };
    }
    const result = historyCandidates({
      rootDir: p.ctx.rootDir,
      agentId: session.agentId,
      threadKey: session.threadKey,
      query,
      store: p.lineage.store,
      maxNodes: profile.historyNodes,
      otherThreads: false,
      recentPatterns: storeRecentPatterns,
      namespace: p.ctx.settings.memory.namespace,
    });
    return {
      candidates: result.candidates,
      excluded: result.otherThreads,
      ...(result.note ? { note: result.note } : {}),
    };
  };
}

/** Units for the query; for a prompt no unit answers, quoted excerpts of the thread's other sessions. */
function longTermGatherer(
  p: LifecycleParts,
  request: ProfilePackRequest,
  profile: PackProfile,
  query: string,
): PlaneGatherer {
  const search = (s: Parameters<typeof p.ctx.memory.search>[0]) => p.ctx.memory.search(s);
  return async (): Promise<PlaneYield> => {
    const units = await longTermCandidates(search, query, request.session.agentId);
    if (!profile.transcriptFallback || !query.trim()) return { candidates: units };
    const approved = units.filter((unit) => unit.reviewState === 'approved');
    const byMeaning = recallsByMeaning(p.ctx.settings);
    const floors = { 'long-term': RELEVANCE_FLOORS['long-term'] };
    const vocabulary = await queryVocabulary(query, p.ctx.rootDir);
    if (relevantCandidates(query, approved, floors, { byMeaning, vocabulary }).kept.length > 0) {
      return { candidates: units };
    }
    const excerpts = await p.parts().recall.transcriptExcerpts(request.session, query);
    return { candidates: [...units, ...excerpts] };
  };
}

function gatherers(
  p: LifecycleParts,
  request: ProfilePackRequest,
  profile: PackProfile,
  query: string,
) {
  const source = planningSource(p);
  const out: Partial<Record<PackPlane, PlaneGatherer>> = {
    history: historyGatherer(p, request, profile, query),
    'long-term': longTermGatherer(p, request, profile, query),
    documents: async () => ({
      candidates: await documentCandidates(
        (q) => p.ctx.memory.recall(q),
        query,
        request.session.agentId,
      ),
    }),
  };
  if (source === 'none') out.planning = () => ({ candidates: [], note: 'no .beads/ folder' });
  return { gatherers: out, planningSource: source === 'none' ? undefined : source };
}

const alreadyShown = (id: string): PackExclusion => ({
  id,
  plane: 'history',
  reason: 'already-shown',
  tokenCost: 0,
});

/** The seed of a receipt's id: who the pack is for, and under which profile. */
const receiptSeed = (session: SessionRecord, profile: PackProfileName) =>
  [session.agentId, session.sessionKey, session.epoch, profile].join('\u0000');

/**
 * The pack one profile gives one session now: heads not yet shown this
 * epoch (when the profile claims), the planes with the profile's inputs,
 * all under `memory.contextBudgetTokens`, costed with the estimate (no
 * tokenizer on the hook path). Reads only.
 */
export async function buildProfilePack(
  p: LifecycleParts,
  request: ProfilePackRequest,
): Promise<ProfilePack> {
  const profile = PACK_PROFILES[request.profile];
  const { session } = request;
  const shown = (ids: string[]) =>
    profile.claim ? p.heads().sessions.injected(session, ids) : new Set<string>();
  const offered = await headCandidates(p, session, profile);
  const shownHeads = shown(offered.map((head) => head.id));
  const query = queryOf(p, profile, request);
  const planes = gatherers(p, request, profile, query);
  const pack = await retrieveContextPack(
    {
      query,
      agentId: session.agentId,
      threadKey: session.threadKey,
      budgetTokens: p.ctx.settings.memory.contextBudgetTokens,
      profile: profile.name,
    },
    {
      rootDir: p.ctx.rootDir,
      settings: p.ctx.settings,
      search: (search) => p.ctx.memory.search(search),
      recall: (q) => p.ctx.memory.recall(q),
      counter: estimateCounter,
      ...(p.ctx.env ? { env: p.ctx.env as NodeJS.ProcessEnv } : {}),
      gatherers: planes.gatherers,
      ...(planes.planningSource ? { planningSource: planes.planningSource } : {}),
      alreadyShown: shown,
      heads: offered.filter((head) => !shownHeads.has(head.id)),
      receipt: { seed: receiptSeed(session, profile.name) },
    },
  );
  const excluded = [...[...shownHeads].map(alreadyShown), ...pack.excluded];
  return { pack: { ...pack, excluded }, profile };
}
