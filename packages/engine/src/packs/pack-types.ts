import { lazySchema } from '@cairn/core';
import * as z from 'zod/mini';

/** The planes of a context pack, in the order seed 004 §4 assembles them. */
export const PACK_PLANES = ['planning', 'history', 'long-term', 'documents'] as const;
export type PackPlane = (typeof PACK_PLANES)[number];

/**
 * Seed 004 §6.2. `approved`: reviewed units and fixes; `derived`:
 * summaries, digests, heads, planning records; `raw`: transcript text and
 * tool output, only ever rendered as a quoted excerpt.
 */
export const TRUST_CLASSES = ['approved', 'derived', 'raw'] as const;
export type TrustClass = (typeof TRUST_CLASSES)[number];

/** Why a candidate was considered and left out of a pack. */
export const EXCLUSION_REASONS = [
  'over-budget',
  'below-score',
  'duplicate',
  'plane-off',
  'draft-or-deprecated',
  'untrusted',
  'other-thread',
  /** Injected earlier in the same session epoch (once per epoch: docs/PACKS.md). */
  'already-shown',
  /** Below the relevance floor for the request's query (docs/PACKS.md "Relevance before budget"). */
  'not-relevant',
  /** Beyond what its plane shows of a kind (the raw excerpts a plane may quote). */
  'plane-limit',
] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/**
 * Where an item's text comes from, as evidence a user can open: a unit id
 * and file:line, a lineage node, a run, a commit, a document heading, a
 * Beads issue id, the memory head or a thread head. Only the fields that
 * apply are set.
 */
/**
 * One run an item rests on (a fix pattern's evidence): the run
 * (its session key), its agent, its role for the item (`origin`,
 * `succeeded`, `failed`) and the tool events it rests on (`T:<transcript>:<seq>`).
 */
export const evidenceRunSchema = lazySchema(() =>
  z.object({
    run: z.string(),
    agent: z.optional(z.string()),
    role: z.optional(z.string()),
    events: z.array(z.string()),
  }),
);
export type EvidenceRun = z.infer<typeof evidenceRunSchema>;

export const provenanceSchema = lazySchema(() =>
  z.object({
    kind: z.enum(['unit', 'lineage', 'run', 'commit', 'document', 'beads', 'head']),
    id: z.string(),
    file: z.optional(z.string()),
    line: z.optional(z.number()),
    heading: z.optional(z.string()),
    /** The runs the item rests on, when it rests on several (a fix pattern's evidence runs). */
    evidence: z.optional(z.array(evidenceRunSchema)),
  }),
);
export type Provenance = z.infer<typeof provenanceSchema>;

/**
 * A span of raw text (tool output, a prompt, a transcript line) that a
 * derived or approved item rests on: never part of the item's own text,
 * it is rendered under the item as a marked quotation (docs/PACKS.md
 * "Trust classes"), e.g. the error text a digest's gotcha or a fix pattern
 * was met with.
 */
export const packQuoteSchema = lazySchema(() =>
  z.object({
    /** Where the text was copied from: `tool output of T:1:3`, `error text of signature …`. */
    from: z.string(),
    text: z.string(),
  }),
);
export type PackQuote = z.infer<typeof packQuoteSchema>;

/** A candidate for a pack before the budget is applied. */
export const packCandidateSchema = lazySchema(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    plane: z.enum(PACK_PLANES),
    text: z.string(),
    /** Raw spans the item rests on, quoted under it; the trust class is that of `text` alone. */
    quotes: z.optional(z.array(packQuoteSchema)),
    source: z.string(),
    trustClass: z.enum(TRUST_CLASSES),
    provenance: provenanceSchema,
    /** ISO date of the evidence, when known. */
    recency: z.optional(z.string()),
    tokenCost: z.number().check(z.int(), z.gte(0)),
    /**
     * The words relevance reads instead of `text`, when the text holds
     * words of Cairn's own (a digest's `Run …:`, `Outcome:` labels, a
     * summary's headings); read before the pack and dropped from its items.
     */
    matchText: z.optional(z.string()),
    /** Relevance within its plane, higher first; plane scores are not compared with each other. */
    score: z.number(),
    why: z.string(),
    /** Seed 004 §6.3 / §9: draft and deprecated entries are found by search but never injected. */
    reviewState: z.optional(z.enum(['draft', 'approved', 'deprecated'])),
    /** Items with the same key say the same thing: only the first included one is kept. */
    dedupeKey: z.optional(z.string()),
    /**
     * `named`: the request names this item (the run a pack is for, a Beads
     * issue its query names, the fix of the failure it follows), so it is
     * relevant whatever its words.
     */
    match: z.optional(z.enum(['named'])),
  }),
);
export type PackCandidate = z.infer<typeof packCandidateSchema>;

export interface PackExclusion {
  id: string;
  plane: PackPlane;
  reason: ExclusionReason;
  /** For `duplicate`: the included item it repeats. */
  duplicateOf?: string;
  tokenCost: number;
}

/** What each plane was given and what it used, all in tokens. */
export interface PlaneBudget {
  plane: PackPlane;
  /** Its share of the total, before carry-over. */
  share: number;
  /** Unused tokens handed on from the planes before it. */
  carriedIn: number;
  used: number;
}

/** The receipt of one allocation: the total, each plane's share and the total used. */
export interface BudgetReceipt {
  total: number;
  used: number;
  planes: PlaneBudget[];
}

/** A candidate before costing: the pack measures it as rendered. */
export type PackInput = Omit<PackCandidate, 'tokenCost'>;

export interface PackItem extends PackCandidate {
  /** Kinds of secret replaced in its text (empty when none). */
  redacted: string[];
}
