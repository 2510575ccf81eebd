import { errorSignature } from '@cairn/engine';
import { formatNumber, markQuick, type Section, type Table, verdict } from '../report';
import { type FailureFixture, loadFailureCorpus } from './failure-corpus';
import {
  type FixPatternFigures,
  fixPatternQualityTable,
  runFixPatternQuality,
} from './fix-pattern-quality';
import { type PairQuality, pairQualityByEcosystem } from './pair-quality';

/** The target: both shares at or above this, per ecosystem and overall. */
export const SIGNATURE_TARGET = 0.95;

export interface SignatureFigures {
  outputs: number;
  /** Outputs written from a tool's known format (Go: not installed here), not captured. */
  modelled: number;
  modelledEcosystems: string[];
  byEcosystem: { ecosystem: string; quality: PairQuality }[];
  /** Same-fix outputs that got more than one signature, with the keys they got. */
  split: { fixKey: string; normalized: string[] }[];
  /** Signatures shared by outputs of different fixes. */
  merged: { normalized: string; fixKeys: string[] }[];
  /** Known fixes offered for a different failure and for the same one elsewhere. */
  fixPatterns: FixPatternFigures;
}

const share = (value: number) => (Number.isNaN(value) ? 'n/a' : formatNumber(value, 3));

/** The misses, for the notes: what a rule would have to learn. */
function misses(signed: (FailureFixture & { signature: string; normalized: string })[]) {
  const byFix = new Map<string, Set<string>>();
  const bySignature = new Map<string, { normalized: string; fixKeys: Set<string> }>();
  for (const f of signed) {
    byFix.set(f.fixKey, (byFix.get(f.fixKey) ?? new Set()).add(f.normalized));
    const entry = bySignature.get(f.signature) ?? { normalized: f.normalized, fixKeys: new Set() };
    entry.fixKeys.add(f.fixKey);
    bySignature.set(f.signature, entry);
  }
  return {
    split: [...byFix]
      .filter(([, keys]) => keys.size > 1)
      .map(([fixKey, keys]) => ({ fixKey, normalized: [...keys].sort() })),
    merged: [...bySignature.values()]
      .filter((entry) => entry.fixKeys.size > 1)
      .map((entry) => ({ normalized: entry.normalized, fixKeys: [...entry.fixKeys].sort() })),
  };
}

export async function measureSignatures(): Promise<SignatureFigures> {
  const corpus = await loadFailureCorpus();
  const signed = corpus.map((fixture) => ({
    ...fixture,
    ...errorSignature(fixture.text, { tool: 'Bash', command: fixture.command }),
  }));
  return {
    fixPatterns: await runFixPatternQuality({ corpus }),
    outputs: corpus.length,
    modelled: corpus.filter((fixture) => fixture.source !== 'captured').length,
    modelledEcosystems: [
      ...new Set(corpus.filter((f) => f.source !== 'captured').map((f) => f.ecosystem)),
    ].sort(),
    byEcosystem: pairQualityByEcosystem(signed),
    ...misses(signed),
  };
}

function qualityTable(figures: SignatureFigures): Table {
  const target = formatNumber(SIGNATURE_TARGET, 2);
  return {
    title: `Signature quality over every pair of outputs (target >= ${target} both ways)`,
    columns: [
      'ecosystem',
      'outputs',
      'fixes',
      'signatures',
      'same-fix pairs',
      'given one signature',
      'different-fix pairs',
      'kept apart',
      'verdict',
    ],
    rows: figures.byEcosystem.map(({ ecosystem, quality: q }) => [
      ecosystem,
      String(q.outputs),
      String(q.fixes),
      String(q.signatures),
      String(q.samePairs),
      share(q.sameShare),
      String(q.differentPairs),
      share(q.apartShare),
      verdict(!(q.sameShare < SIGNATURE_TARGET) && !(q.apartShare < SIGNATURE_TARGET)),
    ]),
    notes: [
      'A pair is two outputs; "same fix" is the same fix label under the same tool (Cairn learns a fix per command family: the same fix under npm and under pnpm is two fixes).',
      'Each signature is `errorSignature(output, { tool: "Bash", command })` with the command that produced the output.',
      `The \`all\` row counts every pair, across ecosystems too. ${figures.outputs - figures.modelled} outputs were captured by running the tools; ${figures.modelled} (${figures.modelledEcosystems.join(', ') || 'none'}: not installed here) are modelled on the formats public build logs show, with this corpus's own paths and names (bench/scripts/failures/go-modelled.ts, test-runner-modelled.ts).`,
    ],
  };
}

function missTable(figures: SignatureFigures): Table {
  const rows = [
    ...figures.split.map((miss) => [
      'one fix, several signatures',
      miss.fixKey,
      miss.normalized.join(' ≠ '),
    ]),
    ...figures.merged.map((miss) => [
      'several fixes, one signature',
      miss.fixKeys.join(', '),
      miss.normalized,
    ]),
  ];
  return {
    title: 'Signature misses (what the rules do not yet tell apart or join)',
    columns: ['miss', 'fixes', 'normalized keys'],
    rows: rows.length > 0 ? rows : [['none', '', '']],
  };
}

export async function runSignatures(options: { quick?: boolean } = {}): Promise<Section> {
  const figures = await measureSignatures();
  return {
    name: 'signatures',
    title: 'Error signatures',
    intro: [
      'How well `errorSignature` groups real tool failures: a corpus of outputs captured by running node, tsc, npm, pnpm, python3, pip, pytest, cargo, rustc, javac, java, mvn, git, bash, sh, make and docker in temp dirs (`bench/scripts/capture-failures.ts` regenerates it), each produced two to four times in other settings (temp dirs, file names, line numbers, ports), and each labelled with the fix it needs (`bench/fixtures/failures/labels.jsonl`). Near-misses (another module, another error code, another command family) carry other fix labels. The bench only reads the fixtures.',
      "Failing tests: the same seven failures (which tests, in which file, failing how) run for real with node's test runner (spec and TAP reporters), vitest, jest, mocha, ava, tap, pytest, unittest and cargo test, and modelled on public build logs for go test, JUnit under Maven Surefire, Playwright, RSpec and PHPUnit, each from three or four places (another folder and working directory, moved lines, other values, timings). Two of the seven failures of each runner were kept out of the tuning of the rules (`heldOut`). Beside them, failures of other kinds (labels with `kind`): timeouts, setup hooks and fixtures against the same error in the body, snapshots, errors after a test ended, files that fail to load, parametrized tests, long diffs, one test name in two suites, other reporters and colours, other tests around the failing one, run for real with vitest, jest, mocha, ava, node's test runner, pytest, unittest and cargo test (`bench/scripts/failures/kind-case.ts`), a third of them held out; the `new kinds` rows count them apart. The last table is the fix-pattern figure of the injection-quality section: would a fix learned from one failure be offered as the Known fix of another?",
    ],
    tables: markQuick(
      [qualityTable(figures), missTable(figures), fixPatternQualityTable(figures.fixPatterns)],
      options.quick,
    ),
    figures,
  };
}
