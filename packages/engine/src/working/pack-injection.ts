import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PackItem } from '../packs/compose-pack';
import { escapePackItem } from '../packs/escape-pack-text';
import { storeRecentPatterns } from '../packs/history-patterns';
import { historyCandidates } from '../packs/history-plane';
import type { PackExclusion, PackPlane } from '../packs/pack-types';
import type { PlaneGatherer } from '../packs/plane-runner';
import type { PlanningSource } from '../packs/planning-graph';
import { type PackFrameOptions, packFrameTokens, renderPack } from '../packs/render-pack';
import { type ContextPack, retrieveContextPack } from '../packs/retrieve-context-pack';
import { estimateCounter } from '../packs/token-counter';
import {
  fitHeads,
  HEAD_SHARES,
  type HeadCandidate,
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
import type { InjectionEvent, InjectionReceipt } from './pack-receipts';
import { withoutUnknownLineage } from './team-head';

/**
 * The newest summaries of the thread a hook's history plane considers
 * (`cairn pack` reads 20): each prompt reads and costs them anew, and
 * what was shown is left out until the next epoch.
 */
const HOOK_HISTORY_NODES = 6;

/** The request's query is capped by its schema; a long prompt is cut to it. */
const MAX_QUERY_CHARS = 20_000;

export interface PackInjectionRequest {
  event: InjectionEvent;
  session: SessionRecord;
  query: string;
  /** The long-term plane's candidates for this event (units, or transcript excerpts). */
  longTerm?: PlaneGatherer;
  /** false: the head items only (pre-compaction). */
  planes?: boolean;
  /**
   * false: nothing is claimed (the text goes into a compaction prompt, not
   * the context) and nothing counts as already shown.
   */
  claim?: boolean;
  /** Said in the pack's title. */
  purpose?: string;
  /**
   * Where the memory head is read: `file` (MEMORY.md through the backend, as
   * session start always has) or `state` (the region Cairn last wrote, from
   * heads.db: the prompt hook reads no memory file).
   */
  headFrom?: 'file' | 'state';
}

export interface PackInjection {
  /** What the hook injects: '' when nothing is new. */
  text: string;
  receipt: InjectionReceipt;
}

/** On the hook path `bd` runs only when `memory.planning` is `bd`, else the `.beads/` export is read. */
function planningSource(p: LifecycleParts): PlanningSource | 'none' {
  if (p.ctx.settings.memory.planning === 'bd') return 'auto';
  const env = p.ctx.env ?? process.env;
  if (!existsSync(join(p.ctx.rootDir, '.beads')) && !env.BEADS_DIR) return 'none';
  return 'export';
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

async function headCandidates(
  p: LifecycleParts,
  session: SessionRecord,
  from: 'file' | 'state',
): Promise<HeadCandidate[]> {
  const region = await memoryHeadRegion(p, from);
  const thread = p.heads().threads.getThread(session.agentId, session.threadKey);
  const heads: HeadCandidate[] = [];
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
  if (thread) {
    heads.push({
      id: threadHeadId(session.threadKey),
      name: `thread ${session.threadKey}`,
      text: threadHeadText(thread),
      source: `thread head of ${session.threadKey} (Tier 2)`,
      file: `.cairn/memory/threads/${session.agentId}.${session.threadKey}.md`,
      why: `the head of this thread (${session.threadKey})`,
      share: HEAD_SHARES.thread,
    });
  }
  return heads;
}

const shownExclusion = (id: string): PackExclusion => ({
  id,
  plane: 'history',
  reason: 'already-shown',
  tokenCost: 0,
});

function gatherers(p: LifecycleParts, session: SessionRecord, request: PackInjectionRequest) {
  const source = planningSource(p);
  const out: Partial<Record<PackPlane, PlaneGatherer>> = {
    history: () => {
      // No database the event did not open already: prompt submit has it open
      // for the transcript; at session start the thread head stands for it.
      if (!p.lineage.isOpen()) {
        return {
          candidates: [],
          note: 'lineage not opened by this event; the thread head stands for it',
        };
      }
      // The thread head names its newest nodes: none, or all shown this epoch, and
      // there is nothing new to read (the common case after a session's first prompt).
      const newest = p.heads().threads.getThread(session.agentId, session.threadKey)?.lineage ?? [];
      const recent = newest.slice(0, HOOK_HISTORY_NODES);
      if (
        recent.length === 0 ||
        p.heads().sessions.injected(session, recent).size === recent.length
      ) {
        return { candidates: [], note: 'nothing new in this thread since it was shown' };
      }
      const result = historyCandidates({
        rootDir: p.ctx.rootDir,
        agentId: session.agentId,
        threadKey: session.threadKey,
        query: request.query,
        store: p.lineage.store,
        maxNodes: HOOK_HISTORY_NODES,
        otherThreads: false,
        recentPatterns: storeRecentPatterns,
        namespace: p.ctx.settings.memory.namespace,
      });
      return {
        candidates: result.candidates,
        excluded: result.otherThreads,
        ...(result.note ? { note: result.note } : {}),
      };
    },
  };
  if (source === 'none') out.planning = () => ({ candidates: [], note: 'no .beads/ folder' });
  if (request.longTerm) out['long-term'] = request.longTerm;
  return { gatherers: out, planningSource: source === 'none' ? undefined : source };
}

/** Drops the last plane item until the rendered text fits (the estimate is not exactly additive). */
function renderWithin(
  heads: PackItem[],
  items: PackItem[],
  budget: number,
  frame: PackFrameOptions,
): { text: string; dropped: PackExclusion[] } {
  const pinned = [...heads];
  const kept = [...items];
  const dropped: PackExclusion[] = [];
  let text = renderPack([...pinned, ...kept], frame);
  while (text && estimateCounter.count(text) > budget) {
    const last = kept.pop() ?? pinned.pop();
    if (!last) break;
    dropped.push({
      id: last.id,
      plane: last.plane,
      reason: 'over-budget',
      tokenCost: last.tokenCost,
    });
    text = renderPack([...pinned, ...kept], frame);
  }
  return { text, dropped };
}

/**
 * One injection as a context pack (docs/PACKS.md): the memory head and
 * thread head pinned first, then the planes, all under the one budget
 * `memory.contextBudgetTokens`, counted with the estimate (no tokenizer on
 * the hook path). Items shown earlier in the session epoch are left out
 * as `already-shown`; what is shown is claimed; the receipt is stored.
 */
export async function injectPack(
  p: LifecycleParts,
  request: PackInjectionRequest,
): Promise<PackInjection> {
  const { session } = request;
  const counter = estimateCounter;
  const budget = p.ctx.settings.memory.contextBudgetTokens;
  const claim = request.claim !== false;
  // A label for `cairn pack --last`, not a secret: loading node:crypto would cost the hook ~6 ms.
  const receiptId = `pack-${Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0')}`;
  const frame: PackFrameOptions = {
    receiptId,
    ...(request.purpose ? { purpose: request.purpose } : {}),
  };
  const shown = (ids: string[]) =>
    claim ? p.heads().sessions.injected(session, ids) : new Set<string>();
  const offered = await headCandidates(p, session, request.headFrom ?? 'file');
  const shownHeads = shown(offered.map((head) => head.id));
  const heads = fitHeads(
    offered.filter((head) => !shownHeads.has(head.id)),
    budget,
    counter,
  );
  const frameExtra = packFrameTokens(counter, frame) - packFrameTokens(counter);
  const planes = gatherers(p, session, request);
  const pack = await retrieveContextPack(
    {
      query: request.query.slice(0, MAX_QUERY_CHARS),
      agentId: session.agentId,
      threadKey: session.threadKey,
      budgetTokens: budget,
      ...(request.planes === false ? { planes: [] } : {}),
    },
    {
      rootDir: p.ctx.rootDir,
      settings: p.ctx.settings,
      search: (search) => p.ctx.memory.search(search),
      counter,
      ...(p.ctx.env ? { env: p.ctx.env as NodeJS.ProcessEnv } : {}),
      gatherers: planes.gatherers,
      ...(planes.planningSource ? { planningSource: planes.planningSource } : {}),
      reservedTokens: heads.tokens + Math.max(0, frameExtra),
      alreadyShown: shown,
    },
  );
  const rendered = renderWithin(heads.items, pack.items, budget, frame);
  const droppedIds = new Set(rendered.dropped.map((d) => d.id));
  const items = [...heads.items, ...pack.items].filter((item) => !droppedIds.has(item.id));
  const store = p.heads();
  const full: ContextPack = {
    ...pack,
    text: rendered.text,
    items: items.map(escapePackItem),
    excluded: [
      ...[...shownHeads].map(shownExclusion),
      ...heads.excluded,
      ...pack.excluded,
      ...rendered.dropped,
    ],
  };
  const receipt: InjectionReceipt = {
    receiptId,
    event: request.event,
    agentId: session.agentId,
    sessionKey: session.sessionKey,
    threadKey: session.threadKey,
    epoch: session.epoch,
    at: p.ctx.now().toISOString(),
    tokens: rendered.text ? counter.count(rendered.text) : 0,
    budgetTokens: budget,
    pack: full,
  };
  // One write for the marks and the receipt, and none when nothing was shown.
  if (rendered.text) {
    store.transaction(() => {
      if (claim)
        store.sessions.claimInjections(
          session,
          items.map((i) => i.id),
        );
      store.receipts.record(receipt);
    });
  }
  return { text: rendered.text, receipt };
}
