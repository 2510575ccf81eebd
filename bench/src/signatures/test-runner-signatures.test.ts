import { errorSignature } from '@cairn/engine';
import { detectToolFailure, isLowInformation } from '@cairn/engine/internals';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FailureFixture, loadFailureCorpus } from './failure-corpus';
import { pairCounts, runFixPatternQuality } from './fix-pattern-quality';

/*
 * The test runners' outputs of bench/fixtures/failures/ (captured here:
 * node:test, vitest, jest, mocha, ava, tap, pytest, unittest, cargo test;
 * modelled on public logs: go test, JUnit/Surefire, Playwright, RSpec,
 * PHPUnit). Each case is one failure (which tests, in which file, failing
 * how) produced in several places; its label comes from the case.
 */

const RUNNERS: Record<string, string> = {
  'node-test': 'node-test',
  vitest: 'vitest',
  jest: 'jest',
  mocha: 'mocha',
  ava: 'ava',
  tap: 'tap',
  pytest: 'pytest',
  unittest: 'unittest',
  'cargo-test': 'cargo-test',
  'go-test': 'go-test',
  junit: 'junit',
  playwright: 'playwright',
  rspec: 'rspec',
  phpunit: 'phpunit',
};

let corpus: FailureFixture[];
beforeAll(async () => {
  corpus = await loadFailureCorpus();
});

const signatureOf = (f: FailureFixture) =>
  errorSignature(f.text, { tool: 'Bash', command: f.command });
/** The seven failures written for every runner (the kinds beyond them are checked below). */
const byRunner = (ecosystem: string) =>
  corpus.filter((f) => f.ecosystem === ecosystem && f.kind === undefined);

describe.each(Object.entries(RUNNERS))('%s failures', (ecosystem, family) => {
  it('has five failures or more in three places or more, and some held out', () => {
    const outputs = byRunner(ecosystem);
    const cases = [...new Set(outputs.map((f) => f.case))];
    const placed = cases.filter((name) => outputs.filter((f) => f.case === name).length >= 3);
    expect(placed.length).toBeGreaterThanOrEqual(5);
    expect(outputs.some((f) => f.heldOut)).toBe(true);
  });

  it('names the failing tests: one signature per failure, another for another failure', () => {
    const outputs = byRunner(ecosystem);
    const byFix = new Map<string, Set<string>>();
    const bySignature = new Map<string, Set<string>>();
    for (const f of outputs) {
      const signature = signatureOf(f);
      expect(signature.family, f.file).toBe(family);
      expect(isLowInformation(signature), signature.normalized).toBe(false);
      byFix.set(f.fixKey, (byFix.get(f.fixKey) ?? new Set()).add(signature.normalized));
      bySignature.set(
        signature.normalized,
        (bySignature.get(signature.normalized) ?? new Set()).add(f.fixKey),
      );
    }
    for (const [fix, keys] of byFix) expect([...keys], fix).toHaveLength(1);
    for (const [key, fixes] of bySignature) expect([...fixes], key).toHaveLength(1);
  });

  it('is seen as failed from its output alone (no exit code: OpenCode)', () => {
    for (const f of byRunner(ecosystem)) {
      expect(
        detectToolFailure({ tool: 'bash', command: f.command, output: f.text }).failed,
        f.file,
      ).toBe(true);
    }
  });
});

/** The failure kinds beyond the seven (bench/scripts/failures/kind-case.ts). */
describe('failures of other kinds (timeouts, hooks, load failures, parameters, reporters…)', () => {
  const kinds = () => corpus.filter((f) => f.kind !== undefined);

  it('are captured for every kind, in two places or more, some held out', () => {
    const names = new Set(kinds().map((f) => f.kind));
    expect(names.size).toBeGreaterThanOrEqual(8);
    expect(kinds().some((f) => f.heldOut)).toBe(true);
  });

  it('give one signature per failure, another for another failure, none low-information', () => {
    const byFix = new Map<string, Set<string>>();
    const bySignature = new Map<string, Set<string>>();
    for (const f of kinds()) {
      const signature = signatureOf(f);
      expect(isLowInformation(signature), `${f.file}: ${signature.normalized}`).toBe(false);
      byFix.set(f.fixKey, (byFix.get(f.fixKey) ?? new Set()).add(signature.normalized));
      const fixes = bySignature.get(signature.normalized) ?? new Set();
      bySignature.set(signature.normalized, fixes.add(f.fixKey));
    }
    for (const [fix, keys] of byFix) expect([...keys], fix).toHaveLength(1);
    for (const [key, fixes] of bySignature) expect([...fixes], key).toHaveLength(1);
  });

  it('are seen as failed from their output alone, colours included', () => {
    for (const f of corpus.filter((fixture) => fixture.kind !== undefined)) {
      const failure = detectToolFailure({ tool: 'bash', command: f.command, output: f.text });
      expect(failure.failed, f.file).toBe(true);
    }
  });
});

describe('known fixes over the whole corpus', () => {
  it('offers no fix for a different failure and the fix for the same failure elsewhere', async () => {
    const figures = await runFixPatternQuality({ corpus });
    const all = figures.groups.find((g) => g.group === 'all')!;
    expect(all.offeredForDifferent).toBe(0);
    expect(all.sameShare).toBeGreaterThanOrEqual(0.95);
    const heldOut = figures.groups.find((g) => g.group === 'held-out')!;
    expect(heldOut.offeredForDifferent).toBe(0);
    expect(heldOut.samePairs).toBeGreaterThan(0);
    expect(figures.wrongFixes).toEqual([]);
  });

  it('counts pairs both ways of the rule: low-information signatures are never offered', () => {
    const signed = [
      {
        fixKey: 'a',
        ecosystem: 'x',
        heldOut: false,
        signature: 's1',
        normalized: 'n',
        offers: 's1',
      },
      {
        fixKey: 'a',
        ecosystem: 'x',
        heldOut: false,
        signature: 's1',
        normalized: 'n',
        offers: 's1',
      },
      {
        fixKey: 'b',
        ecosystem: 'x',
        heldOut: false,
        signature: 's1',
        normalized: 'n',
        offers: 's1',
      },
      {
        fixKey: 'c',
        ecosystem: 'x',
        heldOut: false,
        signature: 's2',
        normalized: 'g',
        offers: undefined,
      },
      {
        fixKey: 'c',
        ecosystem: 'x',
        heldOut: false,
        signature: 's2',
        normalized: 'g',
        offers: undefined,
      },
    ];
    expect(pairCounts('x', signed)).toMatchObject({
      outputs: 5,
      samePairs: 2,
      offeredForSame: 1,
      differentPairs: 8,
      offeredForDifferent: 2,
      lowInformation: 2,
    });
  });
});
