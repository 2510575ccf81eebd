import { type CairnSettings, redactSecrets } from '@cairn/core';
import { type Allocation, allocateBudget } from './allocate-budget';
import type { PackCandidate, PackExclusion, PackPlane } from './pack-types';
import { packFrameTokens, renderPack, renderPackItem } from './render-pack';
import type { TokenCounter } from './token-counter';
import { applyTrustPolicy, type TrustPolicyOptions } from './trust-policy';

/** A candidate before costing: the pack measures it as rendered. */
export type PackInput = Omit<PackCandidate, 'tokenCost'>;

export interface PackItem extends PackCandidate {
  /** Kinds of secret replaced in its text (empty when none). */
  redacted: string[];
}

export interface ComposeOptions {
  counter: TokenCounter;
  /** The `memory.*` settings: budget, plane switches and shares. */
  settings: CairnSettings['memory'];
  /** Overrides the budget setting (a request's `budgetTokens`). */
  budgetTokens?: number;
  /** Tokens already spent this turn outside the pack (the memory head). */
  reservedTokens?: number;
  trust?: TrustPolicyOptions;
}

export interface ComposedPack {
  /** What gets injected: empty when nothing was included. */
  text: string;
  items: PackItem[];
  excluded: PackExclusion[];
  budget: Allocation['budget'] & { counter: TokenCounter['name']; frame: number };
}

/** The planes the settings switch off (documents has no switch: a 0 share leaves it empty). */
export function planesOff(settings: CairnSettings['memory']): PackPlane[] {
  const off: PackPlane[] = [];
  if (settings.planning === 'off') off.push('planning');
  if (settings.history === 'off') off.push('history');
  if (settings.longTerm === 'off') off.push('long-term');
  return off;
}

/**
 * Turns gathered candidates into the injected pack: secrets are redacted,
 * the trust policy drops drafts, deprecated entries and needless raw text,
 * each item is costed as it will be rendered, the frame and the reserve
 * come off the budget, and the allocation decides the rest. The rendered
 * text, counted with the same counter, never exceeds the budget.
 */
export function composePack(
  candidates: readonly PackInput[],
  options: ComposeOptions,
): ComposedPack {
  const { counter, settings } = options;
  const redactions = new Map<string, string[]>();
  const costed: PackCandidate[] = candidates.map((candidate) => {
    const redaction = redactSecrets(candidate.text);
    const kinds = redaction.found.map((f) => f.kind);
    const quotes = candidate.quotes?.map((quote) => {
      const quoted = redactSecrets(quote.text);
      kinds.push(...quoted.found.map((f) => f.kind));
      return { ...quote, text: quoted.text };
    });
    if (kinds.length) redactions.set(candidate.id, kinds);
    const item = {
      ...candidate,
      text: redaction.text,
      ...(quotes ? { quotes } : {}),
      tokenCost: 0,
    };
    return { ...item, tokenCost: counter.count(renderPackItem(item)) };
  });
  const trusted = applyTrustPolicy(costed, options.trust);
  const frame = packFrameTokens(counter);
  const allocation = allocateBudget({
    budgetTokens: options.budgetTokens ?? settings.contextBudgetTokens,
    reservedTokens: frame + (options.reservedTokens ?? 0),
    shares: {
      planning: settings.planningShare,
      history: settings.historyShare,
      'long-term': settings.longTermShare,
      documents: settings.documentsShare,
    },
    off: planesOff(settings),
    candidates: trusted.kept,
  });
  const items = allocation.items.map((item) => ({
    ...item,
    redacted: redactions.get(item.id) ?? [],
  }));
  const text = renderPack(items);
  return {
    text,
    items,
    excluded: [...trusted.excluded, ...allocation.excluded],
    budget: { ...allocation.budget, counter: counter.name, frame },
  };
}
