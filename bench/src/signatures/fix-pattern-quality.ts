import { errorSignature } from '@cairn/engine';
import { isLowInformation } from '@cairn/engine/internals';
import { formatNumber, type Table, verdict } from '../report';
import { type FailureFixture, loadFailureCorpus } from './failure-corpus';

/**
 * Would a fix learned from one failure be offered as the Known fix of
 * another? Cairn offers a pattern after a failing tool exactly when the
 * new failure has the pattern's signature and that signature is not
 * low-information (docs/HISTORY.md), so over every pair of labelled
 * outputs (a fix learned from one, the other failing next) the answer is
 * `errorSignature` and `isLowInformation`, the functions the recorder
 * calls. The labels (which test failed, in which file, how; which fix a
 * tool error needs) come from the cases that produced the outputs
 * (bench/scripts/failures/), never from a signature. Held-out cases were
 * kept out of the tuning of the rules and are reported apart.
 */

/** The issue's targets: no known fix for a different failure, and the same failure found again. */
export const WRONG_FIX_TARGET = 0;
export const SAME_FIX_TARGET = 0.95;

export interface FixPatternQuality {
  /** `tuning`, `held-out` (pairs with a held-out output), `all`, or an ecosystem. */
  group: string;
  outputs: number;
  /** Pairs of outputs of different failures. */
  differentPairs: number;
  /** ... of which one would be offered the other's fix. */
  offeredForDifferent: number;
  /** Pairs of outputs of the same failure in other places. */
  samePairs: number;
  /** ... of which one would be offered the other's fix. */
  offeredForSame: number;
  sameShare: number;
  /** Outputs whose signature is low-information (recorded, never offered a fix). */
  lowInformation: number;
}

export interface FixPatternFigures {
  groups: FixPatternQuality[];
  /** The low-information signatures met, with how many outputs had each. */
  lowInformation: { normalized: string; outputs: number }[];
  /** Different failures that would be offered each other's fix. */
  wrongFixes: { normalized: string; fixKeys: string[] }[];
}

/** One output with its signature, as the pair counts read it. */
export interface SignedOutput {
  fixKey: string;
  ecosystem: string;
  heldOut: boolean;
  /** The failure kind of a case beyond the first seven scenarios (bench/scripts/failures/kind-case.ts). */
  kind?: string | undefined;
  signature: string;
  normalized: string;
  /** The signature a fix is offered for; undefined when it is low-information. */
  offers: string | undefined;
}

function sign(fixture: FailureFixture): SignedOutput {
  const signature = errorSignature(fixture.text, { tool: 'Bash', command: fixture.command });
  return {
    fixKey: fixture.fixKey,
    ecosystem: fixture.ecosystem,
    heldOut: fixture.heldOut === true,
    kind: fixture.kind,
    signature: signature.signature,
    normalized: signature.normalized,
    offers: isLowInformation(signature) ? undefined : signature.signature,
  };
}

/** Pair counts over the pairs `keep` accepts. */
export function pairCounts(
  group: string,
  signed: readonly SignedOutput[],
  keep: (a: SignedOutput, b: SignedOutput) => boolean = () => true,
): FixPatternQuality {
  let differentPairs = 0;
  let offeredForDifferent = 0;
  let samePairs = 0;
  let offeredForSame = 0;
  const counted = new Set<SignedOutput>();
  for (let i = 0; i < signed.length; i += 1) {
    for (let j = i + 1; j < signed.length; j += 1) {
      const a = signed[i]!;
      const b = signed[j]!;
      if (!keep(a, b)) continue;
      counted.add(a).add(b);
      const offered = a.offers !== undefined && a.offers === b.offers;
      if (a.fixKey === b.fixKey) {
        samePairs += 1;
        if (offered) offeredForSame += 1;
      } else {
        differentPairs += 1;
        if (offered) offeredForDifferent += 1;
      }
    }
  }
  return {
    group,
    outputs: counted.size,
    differentPairs,
    offeredForDifferent,
    samePairs,
    offeredForSame,
    sameShare: samePairs === 0 ? Number.NaN : offeredForSame / samePairs,
    lowInformation: [...counted].filter((s) => s.offers === undefined).length,
  };
}

function lowInformation(signed: readonly SignedOutput[]) {
  const counts = new Map<string, number>();
  for (const s of signed)
    if (s.offers === undefined) counts.set(s.normalized, (counts.get(s.normalized) ?? 0) + 1);
  return [...counts]
    .map(([normalized, outputs]) => ({ normalized, outputs }))
    .sort((a, b) => b.outputs - a.outputs || a.normalized.localeCompare(b.normalized));
}

function wrongFixes(signed: readonly SignedOutput[]) {
  const bySignature = new Map<string, { normalized: string; fixKeys: Set<string> }>();
  for (const s of signed) {
    if (s.offers === undefined) continue;
    const entry = bySignature.get(s.offers) ?? { normalized: s.normalized, fixKeys: new Set() };
    bySignature.set(s.offers, { ...entry, fixKeys: entry.fixKeys.add(s.fixKey) });
  }
  return [...bySignature.values()]
    .filter((entry) => entry.fixKeys.size > 1)
    .map((entry) => ({ normalized: entry.normalized, fixKeys: [...entry.fixKeys].sort() }));
}

/** The figures over a corpus (default: bench/fixtures/failures/). */
export async function runFixPatternQuality(
  options: { corpus?: readonly FailureFixture[] } = {},
): Promise<FixPatternFigures> {
  const signed = (options.corpus ?? (await loadFailureCorpus())).map(sign);
  const heldOut = signed.filter((s) => s.heldOut);
  const newKinds = signed.filter((s) => s.kind !== undefined);
  const isNewHeldOut = (s: SignedOutput) => s.kind !== undefined && s.heldOut;
  const newHeldOut = signed.filter(isNewHeldOut);
  const ecosystems = [...new Set(signed.map((s) => s.ecosystem))].sort();
  return {
    groups: [
      ...ecosystems.map((ecosystem) =>
        pairCounts(
          ecosystem,
          signed.filter((s) => s.ecosystem === ecosystem),
        ),
      ),
      pairCounts('tuning', signed, (a, b) => !a.heldOut && !b.heldOut),
      {
        ...pairCounts('held-out', signed, (a, b) => a.heldOut || b.heldOut),
        outputs: heldOut.length,
        lowInformation: heldOut.filter((s) => s.offers === undefined).length,
      },
      {
        ...pairCounts('new kinds', signed, (a, b) => a.kind !== undefined || b.kind !== undefined),
        outputs: newKinds.length,
        lowInformation: newKinds.filter((s) => s.offers === undefined).length,
      },
      {
        ...pairCounts('new kinds, held-out', signed, (a, b) => isNewHeldOut(a) || isNewHeldOut(b)),
        outputs: newHeldOut.length,
        lowInformation: newHeldOut.filter((s) => s.offers === undefined).length,
      },
      pairCounts('all', signed),
    ],
    lowInformation: lowInformation(signed),
    wrongFixes: wrongFixes(signed),
  };
}

const share = (value: number) => (Number.isNaN(value) ? 'n/a' : formatNumber(value, 3));

/** The table of the fix-pattern figures (for the signatures and the injection-quality sections). */
export function fixPatternQualityTable(figures: FixPatternFigures): Table {
  return {
    title: `Known fixes over every pair of outputs (targets: ${WRONG_FIX_TARGET} for a different failure, >= ${formatNumber(SAME_FIX_TARGET, 2)} for the same failure elsewhere)`,
    columns: [
      'group',
      'outputs',
      'low-information',
      'different-failure pairs',
      'offered a wrong fix',
      'same-failure pairs',
      'offered the fix',
      'share',
      'verdict',
    ],
    rows: figures.groups.map((q) => [
      q.group,
      String(q.outputs),
      String(q.lowInformation),
      String(q.differentPairs),
      String(q.offeredForDifferent),
      String(q.samePairs),
      String(q.offeredForSame),
      share(q.sameShare),
      verdict(q.offeredForDifferent <= WRONG_FIX_TARGET && !(q.sameShare < SAME_FIX_TARGET)),
    ]),
    notes: [
      'A pair is a fix learned from one output and the other output failing next; it is offered when both have one signature and that signature is not low-information (docs/HISTORY.md#low-information-signatures).',
      '"Same failure" is the same label: the same failing tests (file, suites, name, how each failed) or the same fix of a tool error, produced in other places (another folder and working directory, moved lines, other values and timings).',
      '`held-out` counts the pairs with an output of a case kept out of the tuning of the rules (its labels say `heldOut`); `tuning` the others; an ecosystem row its own pairs.',
      '`new kinds` counts the pairs with an output of the failure kinds beyond the first seven scenarios (timeouts, setup hooks and fixtures, snapshots, errors after a test ended, files that fail to load, parametrized tests, long diffs, one name in two suites, reporters and colours, other tests around the failing one; their labels say `kind`), and `new kinds, held-out` those with a held-out one of them.',
      `Low-information signatures met: ${figures.lowInformation.map((l) => `\`${l.normalized}\` (${l.outputs})`).join(', ') || 'none'}.`,
      `Different failures offered each other's fix: ${figures.wrongFixes.map((w) => `\`${w.normalized}\` (${w.fixKeys.join(', ')})`).join('; ') || 'none'}.`,
    ],
  };
}
