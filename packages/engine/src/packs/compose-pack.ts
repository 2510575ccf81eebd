import { type CairnSettings, redactSecrets } from '@cairn/core';
import {
  type Allocation,
  allocateBudget,
  applyTrustPolicy,
  type TrustPolicyOptions,
} from './allocate-budget';
import { dedupeItems, FactLedger } from './pack-dedupe';
import type { PackCandidate, PackExclusion, PackInput, PackItem, PackPlane } from './pack-types';
import { fitHeads, type HeadCandidate } from './pinned-items';
import { relevantCandidates } from './relevance';
import type { QueryVocabulary } from './relevance-terms';
import {
  type PackFrameOptions,
  packFrameTokens,
  RECEIPT_ID_PLACEHOLDER,
  receiptIdOf,
  renderPack,
  renderPackItem,
} from './render-pack';
import type { TokenCounter } from './token-estimate';

export type { PackInput, PackItem } from './pack-types';

export interface ComposeOptions {
  counter: TokenCounter;
  /** The `memory.*` settings: budget, plane switches and shares. */
  settings: CairnSettings['memory'];
  /** Overrides the budget setting (a request's `budgetTokens`). */
  budgetTokens?: number;
  /** Tokens already spent this turn outside the pack. */
  reservedTokens?: number;
  trust?: TrustPolicyOptions;
  /**
   * The request's query and the planes' relative score floors: candidates
   * not relevant to it are left out (`relevantCandidates`). Absent: every
   * candidate is relevant (a caller that chose them itself).
   */
  relevance?: {
    query: string;
    floors: Partial<Record<PackPlane, number>>;
    /** Recall ranks by meaning (an embedder is configured): the ranked planes need no shared word. */
    byMeaning?: boolean;
    /** The query is made of parts, one a line (session start's thread state): judged part by part. */
    parts?: boolean;
    /** What the query's terms also match, after the search's expansion (`queryVocabulary`). */
    vocabulary?: QueryVocabulary;
  };
  /** Pinned items (the heads), in the order they say things first; each fitted to its share. */
  heads?: readonly HeadCandidate[];
  /** The frame's purpose, and whether it names its receipt (an id made from the body). */
  frame?: { purpose?: string; receipt?: { seed: string } };
}

export interface ComposedPack {
  /** What gets injected: empty when nothing was included. */
  text: string;
  /** The pinned heads first, then the planes' items. */
  items: PackItem[];
  excluded: PackExclusion[];
  budget: Allocation['budget'] & { counter: TokenCounter['name']; frame: number };
  /** The id the frame names (`Receipt pack-…`), when it names one. */
  receiptId?: string;
}

/** The planes the settings switch off (documents has no switch: a 0 share leaves it empty). */
export function planesOff(settings: CairnSettings['memory']): PackPlane[] {
  const off: PackPlane[] = [];
  if (settings.planning === 'off') off.push('planning');
  if (settings.history === 'off') off.push('history');
  if (settings.longTerm === 'off') off.push('long-term');
  return off;
}

const TRUST_ORDER = { approved: 0, derived: 1, raw: 2 } as const;
const PLANE_ORDER: Record<PackPlane, number> = {
  planning: 0,
  history: 1,
  'long-term': 2,
  documents: 3,
};

/** Who says a fact first: reviewed before derived before quoted, then by plane and rank. */
const saysFirst = (a: PackInput, b: PackInput) =>
  TRUST_ORDER[a.trustClass] - TRUST_ORDER[b.trustClass] ||
  PLANE_ORDER[a.plane] - PLANE_ORDER[b.plane] ||
  b.score - a.score ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

interface Redacted {
  items: PackInput[];
  kinds: Map<string, string[]>;
}

/** Secrets out of every text and quote, before anything is compared or costed. */
function redactAll(candidates: readonly PackInput[]): Redacted {
  const kinds = new Map<string, string[]>();
  const items = candidates.map((candidate) => {
    const redaction = redactSecrets(candidate.text);
    const found = redaction.found.map((f) => f.kind);
    const quotes = candidate.quotes?.map((quote) => {
      const quoted = redactSecrets(quote.text);
      found.push(...quoted.found.map((f) => f.kind));
      return { ...quote, text: quoted.text };
    });
    if (found.length) kinds.set(candidate.id, found);
    return { ...candidate, text: redaction.text, ...(quotes ? { quotes } : {}) };
  });
  return { items, kinds };
}

/**
 * The heads, deduplicated among themselves and fitted to their shares;
 * the ledger then holds what the fitted heads say, for the planes.
 */
function pinnedHeads(options: ComposeOptions, budget: number) {
  const heads = options.heads ?? [];
  const inputs = heads.map((head) => ({
    ...head,
    plane: 'history' as const,
    trustClass: 'derived' as const,
  }));
  const deduped = dedupeItems(inputs);
  const fit = fitHeads(deduped.kept, budget, options.counter);
  const ledger = new FactLedger();
  dedupeItems(fit.items, ledger);
  for (const item of fit.items) ledger.cite(item.text, item.id);
  return { fit, ledger, excluded: deduped.excluded };
}

/** Drops the last items until the text fits: the estimate of the parts and of the whole may differ. */
function renderWithin(
  heads: PackItem[],
  items: PackItem[],
  budget: number,
  frame: () => PackFrameOptions,
  rendered: Map<string, string>,
  counter: TokenCounter,
) {
  const kept = [...heads, ...items];
  const dropped: PackExclusion[] = [];
  let text = renderPack(kept, frame(), rendered);
  while (text && counter.count(text) > budget) {
    const last = kept.pop()!;
    dropped.push({
      id: last.id,
      plane: last.plane,
      reason: 'over-budget',
      tokenCost: last.tokenCost,
    });
    text = renderPack(kept, frame(), rendered);
  }
  return { text, kept, dropped };
}

/**
 * The candidates that could be injected at all: one whose text alone is
 * larger than what the frame and the heads leave (a whole section of one
 * long table) is `over-budget` before relevance is judged, so it never
 * sets the bar the others are measured against and is then dropped,
 * leaving a pack without the items that would have fit. Its text is
 * counted, not rendered: a lower bound of its rendering, at the price of
 * one count per candidate.
 */
function fitting(redacted: Redacted, room: number, counter: TokenCounter) {
  const items: PackInput[] = [];
  const excluded: PackExclusion[] = [];
  for (const item of redacted.items) {
    const tokenCost = item.match === 'named' ? 0 : counter.count(item.text);
    if (tokenCost > room) {
      excluded.push({ id: item.id, plane: item.plane, reason: 'over-budget', tokenCost });
    } else {
      items.push(item);
    }
  }
  return { items, excluded };
}

/**
 * The candidates relevant to the request's query (all of them when the
 * caller chose them itself), without the words only relevance reads.
 */
function relevantOf(redacted: Redacted, options: ComposeOptions) {
  const { relevance } = options;
  const relevant = relevance
    ? relevantCandidates(relevance.query, redacted.items, relevance.floors, {
        ...(relevance.byMeaning ? { byMeaning: true } : {}),
        ...(relevance.parts ? { parts: true } : {}),
        ...(relevance.vocabulary ? { vocabulary: relevance.vocabulary } : {}),
      })
    : { kept: redacted.items, excluded: [] as PackExclusion[] };
  const kept = relevant.kept.map(({ matchText: _, ...item }) => item);
  return { kept, excluded: relevant.excluded };
}

/** Each item costed as it is rendered; the renderings kept, so the pack renders each once. */
function costed(items: readonly PackInput[], counter: TokenCounter, rendered: Map<string, string>) {
  return items.map((item): PackCandidate => {
    const text = renderPackItem(item);
    rendered.set(item.id, text);
    return { ...item, tokenCost: counter.count(text) };
  });
}

/** The planes' shares of what the frame, the heads and the reserve leave. */
function allocate(
  settings: CairnSettings['memory'],
  budgetTokens: number,
  reserved: number,
  candidates: PackCandidate[],
) {
  return allocateBudget({
    budgetTokens,
    reservedTokens: reserved,
    shares: {
      planning: settings.planningShare,
      history: settings.historyShare,
      'long-term': settings.longTermShare,
      documents: settings.documentsShare,
    },
    off: planesOff(settings),
    candidates,
  });
}

const frameOptionsOf = (options: ComposeOptions): PackFrameOptions => ({
  ...(options.frame?.purpose ? { purpose: options.frame.purpose } : {}),
  ...(options.frame?.receipt ? { receiptId: RECEIPT_ID_PLACEHOLDER } : {}),
});

/**
 * Turns gathered candidates into the injected pack: secrets are redacted,
 * items not relevant to the query are left out, the heads are pinned
 * within their shares, every fact is said once (`dedupeItems`), the trust
 * policy drops drafts, deprecated entries and needless raw text, each
 * item is costed as it is rendered, the frame and the reserve come off
 * the budget and the allocation decides the rest. Every item is rendered
 * once; the text, counted with the same counter, never exceeds the budget.
 */
export function composePack(
  candidates: readonly PackInput[],
  options: ComposeOptions,
): ComposedPack {
  const { counter, settings } = options;
  const budgetTokens = options.budgetTokens ?? settings.contextBudgetTokens;
  const heads = pinnedHeads(options, budgetTokens);
  const rendered = new Map(heads.fit.rendered);
  const frameOptions = frameOptionsOf(options);
  const frame = packFrameTokens(counter, frameOptions);
  const reserved = frame + heads.fit.tokens + (options.reservedTokens ?? 0);
  const redacted = redactAll(candidates);
  const fits = fitting(redacted, budgetTokens - reserved, counter);
  const relevant = relevantOf({ ...redacted, items: fits.items }, options);
  const unique = dedupeItems([...relevant.kept].sort(saysFirst), heads.ledger);
  const trusted = applyTrustPolicy(costed(unique.kept, counter, rendered), options.trust);
  const allocation = allocate(settings, budgetTokens, reserved, trusted.kept);
  const withKinds = (item: PackCandidate): PackItem => ({
    ...item,
    redacted: redacted.kinds.get(item.id) ?? [],
  });
  const body = () => renderPack([...heads.fit.items, ...allocation.items], {}, rendered);
  const receiptId = options.frame?.receipt
    ? receiptIdOf(options.frame.receipt.seed, body())
    : undefined;
  const frameFor = (): PackFrameOptions => ({
    ...frameOptions,
    ...(receiptId ? { receiptId } : {}),
  });
  const items = allocation.items.map(withKinds);
  const fitted = renderWithin(heads.fit.items, items, budgetTokens, frameFor, rendered, counter);
  return {
    text: fitted.text,
    items: fitted.kept,
    excluded: [
      ...fits.excluded,
      ...relevant.excluded,
      ...heads.excluded,
      ...heads.fit.excluded,
      ...unique.excluded,
      ...trusted.excluded,
      ...allocation.excluded,
      ...fitted.dropped,
    ],
    budget: { ...allocation.budget, counter: counter.name, frame },
    ...(receiptId && fitted.text ? { receiptId } : {}),
  };
}
