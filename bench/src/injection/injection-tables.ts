import type { PackProfileName } from '@cairn/engine';
import type { HookResult } from '../lived-in/lived-in-hooks';
import type { Table } from '../report';
import { type FixPatternFigures, fixPatternQualityTable } from '../signatures/fix-pattern-quality';
import type { Distribution } from '../stats';
import type { Part } from './injection-dataset';
import type { ProfileFigures } from './injection-measure';

export interface InjectionFigures {
  topics: number;
  sections: number;
  requests: number;
  budget: number;
  profiles: { profile: PackProfileName; part: Part; figures: ProfileFigures }[];
  packMs: Distribution;
  hook: HookResult;
  /** The post-tool profile's figures: the fix-pattern quality over the failing-test corpus. */
  fixPatterns: FixPatternFigures;
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

/** Profiles judged on relevance (a query): pre-compaction has none and is judged on repeats and artifacts only. */
const QUERIED = new Set<PackProfileName>(['prompt-submit', 'session-start', 'after-compaction']);

function profileRow(profile: PackProfileName, part: Part, f: ProfileFigures): string[] {
  const queried = QUERIED.has(profile);
  const ok =
    (!queried || (f.precision >= 0.6 && f.recall >= 0.9 && f.unansweredMax === 0)) &&
    f.repeatedShare === 0 &&
    f.artifacts === 0 &&
    (!queried || f.unusedBudgetCases === 0);
  return [
    `${profile}, ${part}`,
    String(f.requests),
    queried ? f.precision.toFixed(2) : 'n/a',
    queried ? f.recall.toFixed(2) : 'n/a',
    queried ? `${f.unansweredMean.toFixed(0)} / ${f.unansweredMax}` : 'n/a',
    f.headTokensMean.toFixed(0),
    pct(f.repeatedShare),
    String(f.artifacts),
    queried ? String(f.unusedBudgetCases) : 'n/a',
    verdict(ok),
  ];
}

function hookRow(hook: HookResult): string[] {
  if (!('cairn' in hook))
    return ['`cairn hook claude-code UserPromptSubmit`, hook server', hook.reason, '', '', ''];
  // A prompt no unit answers injects no unit (relevance): only failed runs count against it here.
  const ok = hook.ratio <= 1.5 && hook.p95Ratio <= 2 && hook.failedRuns === 0;
  return [
    '`cairn hook claude-code UserPromptSubmit`, hook server',
    `${hook.cairn.p50.toFixed(1)} / ${hook.cairn.p95.toFixed(1)} ms (bare node ${hook.node.p50.toFixed(1)} / ${hook.node.p95.toFixed(1)} ms)${hook.failedRuns ? `, ${hook.failedRuns} failed runs: ${hook.firstProblem}` : ''}`,
    `${hook.ratio.toFixed(2)}x / ${hook.p95Ratio.toFixed(2)}x`,
    'median <= 1.5x, p95 <= 2x bare node',
    verdict(ok),
  ];
}

/** The per-profile table alone (`--explain` prints it without the latency and fix-pattern parts). */
export function profileTable(profiles: InjectionFigures['profiles']): Table {
  const firstArtifact = profiles.find((p) => p.figures.firstArtifact)?.figures.firstArtifact;
  return {
    title: 'Per profile, at the default budget',
    columns: [
      'Profile, part',
      'Requests',
      'Precision (>= 0.6)',
      'Recall (>= 0.9)',
      'Unanswered: item tokens mean / max (head only: 0)',
      'Head tokens (mean)',
      'Repeated tokens (0)',
      'Artifacts (0)',
      'Unused budget while a labelled item was left out (0)',
      'Result',
    ],
    rows: profiles.map((p) => profileRow(p.profile, p.part, p.figures)),
    notes: [
      'Precision: tokens of injected items that are labelled for the request over the tokens of all injected items, pinned heads not counted (they are the thread state the request came from, shown once per epoch, and reported in their own column). Recall: labelled items injected over labelled items. Both over the requests something answers.',
      'Unanswered: tokens of items (heads not counted) injected for the requests nothing answers; the target is the head only, so 0.',
      'Repeated tokens: tokens of lines (five words or more) that say again, word for word once list marks, labels, code marks and ids are set aside, what an earlier line of the same injection said.',
      'Artifacts: a label said twice (`Decision: Decision:`), a backslash escape of Markdown at a line start (`\\#`, `\\>`, `\\-`, `\\=`, `` \\` ``, `\\[`), an HTML entity (`&lt;`), a line with unpaired `**`, an item whose code fences do not close.',
      'Unused budget while a labelled item was left out: requests where a labelled item is missing although the budget left could hold it.',
      'pre-compaction has no query (the heads only, for the compaction prompt): judged on repeats and artifacts. after-compaction is session start in the new epoch, with the same thread states.',
      'post-tool: the known fix after a failing tool; its figures (fixes offered for a different failure, and for the same failure in another place) are the fix-pattern quality figures over the failing-test corpus (`bench/fixtures/failures/`), as in the Signatures section, in the table below.',
      ...(firstArtifact ? [`First artifact seen: ${firstArtifact}`] : []),
    ],
  };
}

export function injectionTables(f: InjectionFigures): Table[] {
  return [
    profileTable(f.profiles),
    {
      ...fixPatternQualityTable(f.fixPatterns),
      title: `Fix patterns (post-tool): ${fixPatternQualityTable(f.fixPatterns).title}`,
    },
    {
      title: 'Latency on the labelled project',
      columns: ['Measure', 'p50 / p95', 'Ratio', 'Target', 'Result'],
      rows: [
        [
          'Prompt-submit pack, in process (`previewPack`)',
          `${f.packMs.p50.toFixed(1)} / ${f.packMs.p95.toFixed(1)} ms`,
          '',
          'p95 <= 30 ms',
          verdict(f.packMs.p95 <= 30),
        ],
        hookRow(f.hook),
      ],
    },
  ];
}
