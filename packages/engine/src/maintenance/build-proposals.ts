import { sha256Hex } from '@cairn/core';
import {
  type FixPattern,
  fixPatternUnitText,
  type RecurringGotcha,
  recurringGotchas,
  sourceFor,
} from '../history';
import { ABSENT_UNIT, type MemoryRecord, unitContentHash } from '../units';
import { idfWeights, judgePair, profileText, type TextProfile } from './detect-pairs';
import { clipLine } from './maintenance-files';
import { proposalId } from './maintenance-store';
import type { Proposal, ProposalKind } from './maintenance-types';
import type { WorkingSources } from './working-sources';

/**
 * The consolidation pass: from what a run read, the changes it proposes.
 * Nothing here writes; every proposal is a patch on unit ids guarded by
 * the units' content hashes, applied only when a person approves it.
 */

/** A unit neither injected nor created for this long, and not in the head, is proposed for deprecation. */
export const UNUSED_DAYS = 90;
/**
 * New proposals of one kind a run adds at most: a review inbox that fills
 * with hundreds of changes at once gets ignored, so a run prefers doing
 * little (the oldest evidence first); the next run proposes the rest.
 */
export const MAX_NEW_PER_KIND = 10;
/** Pairs compared per unit at most (the ones sharing the most rare terms), so a run stays linear. */
const CANDIDATES_PER_UNIT = 10;

type Unit = MemoryRecord & {
  category: NonNullable<MemoryRecord['category']>;
  review: NonNullable<MemoryRecord['review']>;
};

const hashOf = (unit: Unit) => unitContentHash(unit);
const isUnit = (record: MemoryRecord): record is Unit =>
  record.kind === 'UNIT' && record.category !== undefined && record.review !== undefined;

function base(
  kind: ProposalKind,
  unitIds: string[],
  now: Date,
  fields: Omit<Proposal, 'id' | 'kind' | 'state' | 'unitIds' | 'createdAt'>,
  target = '',
): Proposal {
  return {
    id: proposalId(kind, unitIds, target),
    kind,
    state: 'open',
    unitIds,
    createdAt: now.toISOString(),
    ...fields,
  };
}

/** The unit to keep of two duplicates: approved over draft, then the longer text, then the older. */
function survivorOf(a: Unit, b: Unit): [Unit, Unit] {
  const rank = (u: Unit) => (u.review === 'approved' ? 1 : 0);
  if (rank(a) !== rank(b)) return rank(a) > rank(b) ? [a, b] : [b, a];
  if (a.text.length !== b.text.length) return a.text.length > b.text.length ? [a, b] : [b, a];
  return (a.createdAt ?? '') <= (b.createdAt ?? '') ? [a, b] : [b, a];
}

function pairProposal(a: Unit, b: Unit, verdict: ReturnType<typeof judgePair>, now: Date) {
  const preconditions = { [a.memoryId]: hashOf(a), [b.memoryId]: hashOf(b) };
  if (verdict.kind === 'duplicate') {
    const [keep, drop] = survivorOf(a, b);
    return base('merge', [keep.memoryId, drop.memoryId], now, {
      summary: `Merge near duplicates: keep ${keep.memoryId}, deprecate ${drop.memoryId}`,
      reason: verdict.reason,
      before: `${keep.memoryId}: ${keep.text}\n${drop.memoryId}: ${drop.text}`,
      after: `${keep.memoryId}: ${keep.text}\n${drop.memoryId}: (deprecated, kept for search)`,
      evidence: [keep.memoryId, drop.memoryId],
      patch: {
        preconditions,
        ops: [{ op: 'set-review', memoryId: drop.memoryId, review: 'deprecated' }],
      },
    });
  }
  // The newer statement is taken as the current one; the older is proposed for deprecation.
  const [newer, older] = (a.updatedAt ?? '') >= (b.updatedAt ?? '') ? [a, b] : [b, a];
  return base('contradiction', [newer.memoryId, older.memoryId], now, {
    summary: `Contradiction: ${newer.memoryId} and ${older.memoryId} disagree; deprecate the older`,
    reason: verdict.kind === 'contradiction' ? verdict.reason : '',
    before: `${newer.memoryId}: ${newer.text}\n${older.memoryId}: ${older.text}`,
    after: `${newer.memoryId}: ${newer.text}\n${older.memoryId}: (deprecated)`,
    evidence: [newer.memoryId, older.memoryId],
    patch: {
      preconditions,
      ops: [{ op: 'set-review', memoryId: older.memoryId, review: 'deprecated' }],
    },
  });
}

/** Terms of each unit used to find its candidates: its rarest few. */
const CANDIDATE_TERMS = 5;
/** A term held by more units than this says little about which of them match: not used for candidates. */
const MAX_POSTINGS = 50;

/**
 * Candidate partners of each unit: those sharing one of its rarest terms
 * (an inverted index over rare terms only), best scored first. A year of
 * units (10,000) stays a few million steps instead of every pair.
 */
function candidatePairs(profiles: TextProfile[], weight: (term: string) => number) {
  const postings = new Map<string, number[]>();
  profiles.forEach((profile, index) => {
    for (const term of profile.terms.keys()) {
      const list = postings.get(term);
      if (list) list.push(index);
      else postings.set(term, [index]);
    }
  });
  const pairs = new Set<string>();
  profiles.forEach((profile, index) => {
    const rare = [...profile.terms.keys()]
      .filter((term) => (postings.get(term)?.length ?? 0) <= MAX_POSTINGS)
      .sort((a, b) => postings.get(a)!.length - postings.get(b)!.length)
      .slice(0, CANDIDATE_TERMS);
    const scores = new Map<number, number>();
    for (const term of rare) {
      for (const other of postings.get(term)!) {
        if (other > index) scores.set(other, (scores.get(other) ?? 0) + weight(term));
      }
    }
    const best = [...scores.entries()].sort((x, y) => y[1] - x[1]).slice(0, CANDIDATES_PER_UNIT);
    for (const [other] of best) pairs.add(`${index} ${other}`);
  });
  return [...pairs].map((pair) => pair.split(' ').map(Number) as [number, number]);
}

export function pairProposals(units: readonly Unit[], now: Date): Proposal[] {
  const live = units.filter((unit) => unit.review !== 'deprecated');
  const profiles = live.map((unit) => profileText(unit.text));
  const weight = idfWeights(profiles);
  const proposals: Proposal[] = [];
  for (const [i, j] of candidatePairs(profiles, weight)) {
    const verdict = judgePair(profiles[i]!, profiles[j]!, weight);
    if (verdict.kind !== 'none') proposals.push(pairProposal(live[i]!, live[j]!, verdict, now));
  }
  return proposals;
}

/** A unit id derived from the proposal, so the same promotion adds the same unit on every machine. */
function derivedUnitId(seed: string): string {
  const hex = sha256Hex(seed);
  return `UNIT:${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function promotion(
  signature: string,
  text: string,
  category: 'fact' | 'decision',
  source: string,
  evidence: string[],
  now: Date,
): Proposal {
  const memoryId = derivedUnitId(`promotion ${signature} ${text}`);
  return base(
    'promotion',
    [memoryId],
    now,
    {
      summary: `Promote to a draft ${category}: ${clipLine(text, 90)}`,
      reason: `met in ${evidence.length} run(s); promotions start as draft (seed 004 §5.3.3)`,
      before: '',
      after: `${memoryId} (draft ${category}): ${text}`,
      evidence,
      patch: {
        preconditions: { [memoryId]: ABSENT_UNIT },
        ops: [{ op: 'add', memoryId, text, category, review: 'draft', source }],
      },
    },
    signature,
  );
}

export function promotionProposals(sources: WorkingSources, now: Date): Proposal[] {
  const promoted = (signature: string) =>
    sources.units.some((unit) => unit.source?.includes(`signature=${signature} `) === true);
  const gotchas: RecurringGotcha[] = recurringGotchas(sources.digests.map((d) => d));
  const fromGotchas = gotchas
    .filter((gotcha) => !promoted(gotcha.signature))
    .map((gotcha) => {
      const text = `Recurring error in this repository (${gotcha.family}): ${gotcha.normalized}.`;
      const source = sourceFor('gotcha', gotcha.signature, gotcha.events);
      return promotion(
        gotcha.signature,
        text,
        'fact',
        source,
        gotcha.runs.map((r) => `run:${r}`),
        now,
      );
    });
  const fromPatterns = sources.patterns
    .filter((pattern: FixPattern) => pattern.state === 'verified' && !promoted(pattern.signature))
    .map((pattern) => {
      const steps = pattern.steps.map((step) => `${step.kind} ${step.detail}`);
      const text = fixPatternUnitText({
        normalized: pattern.normalized,
        steps: [...steps, `then \`${pattern.commandFamily}\``],
      });
      const source = sourceFor('pattern', pattern.signature, [], [`pattern=${pattern.id}`]);
      return promotion(pattern.signature, text, 'decision', source, [pattern.id], now);
    });
  return [...fromGotchas, ...fromPatterns];
}

export function unusedProposals(
  sources: WorkingSources,
  now: Date,
  days = UNUSED_DAYS,
): Proposal[] {
  // Without any injection recorded, nothing is known about use: propose nothing.
  if (sources.lastInjected.size === 0) return [];
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  return (
    sources.units
      .filter(isUnit)
      .filter((unit) => unit.review === 'approved' && (unit.updatedAt ?? '') < cutoff)
      .filter((unit) => (sources.lastInjected.get(unit.memoryId) ?? '') < cutoff)
      .sort((a, b) =>
        (sources.lastInjected.get(a.memoryId) ?? a.updatedAt ?? '') <
        (sources.lastInjected.get(b.memoryId) ?? b.updatedAt ?? '')
          ? -1
          : 1,
      )
      .filter(
        (unit) =>
          !sources.head.includes(unit.memoryId) &&
          !sources.head.includes(clipLine(unit.text, 60).replace(/…$/, '')),
      )
      // Only the longest unused become proposals: a run adds few of a kind (MAX_NEW_PER_KIND).
      .slice(0, MAX_NEW_PER_KIND * 5)
      .map((unit) => {
        const last = sources.lastInjected.get(unit.memoryId);
        return base('deprecation', [unit.memoryId], now, {
          summary: `Deprecate unused ${unit.memoryId}: ${clipLine(unit.text, 80)}`,
          reason: last
            ? `last injected ${last.slice(0, 10)}, more than ${days} days ago; the head does not cite it`
            : `never injected in ${days} days; the head does not cite it`,
          before: `${unit.memoryId} (approved): ${unit.text}`,
          after: `${unit.memoryId} (deprecated): ${unit.text}`,
          evidence: [unit.memoryId],
          patch: {
            preconditions: { [unit.memoryId]: hashOf(unit) },
            ops: [{ op: 'set-review', memoryId: unit.memoryId, review: 'deprecated' }],
          },
        });
      })
  );
}

/** Every proposal the sources support (before the store drops the known ones). */
export function buildProposals(sources: WorkingSources, now: Date): Proposal[] {
  const units = sources.units.filter(isUnit);
  return [
    ...pairProposals(units, now),
    ...promotionProposals(sources, now),
    ...unusedProposals(sources, now),
  ];
}

export { isUnit, type Unit };
