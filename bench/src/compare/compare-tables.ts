import type { Section, Table } from '../report';
import type { FigurePair } from './pair-figures';
import type { SideReport } from './side-report';

/** One side of one section: its report, or why there is none (the run failed). */
export interface SideOutcome {
  report?: SideReport;
  error?: string;
}

export interface SectionComparison {
  name: string;
  before: SideOutcome;
  after: SideOutcome;
  pairs: FigurePair[];
}

export interface CompareRun {
  /** Where the before checkout is, as the user named it. */
  beforeDir: string;
  beforeCommit: string;
  afterCommit: string;
  /** Date, machine and load at the start of the compare, as describeMeta writes them. */
  measured: string;
  sections: SectionComparison[];
}

const ONLY_BEFORE = '— (only before)';
const ONLY_AFTER = '— (only after)';

function sideCell(side: SideOutcome): string {
  if (!side.report) return `failed: ${side.error ?? 'no report'}`;
  const dirty = side.report.dirty ? ' (with uncommitted changes)' : '';
  return `${side.report.commit}${dirty}, load ${side.report.loadAverage}`;
}

/** "met / with a verdict", counting PASS against PASS and MISS. */
function targetsMet(pairs: FigurePair[], side: 'before' | 'after'): string {
  const judged = pairs.filter((pair) => ['PASS', 'MISS'].includes(pair[side]?.result ?? ''));
  const met = judged.filter((pair) => pair[side]?.result === 'PASS');
  return `${met.length} of ${judged.length}`;
}

/** Figures whose verdict is not the same on both sides, for the summary's notes. */
export function verdictChanges(run: CompareRun): string[] {
  return run.sections.flatMap((section) =>
    section.pairs
      .filter((pair) => (pair.before?.result ?? '') !== (pair.after?.result ?? ''))
      .filter((pair) => pair.before?.result || pair.after?.result)
      .map(
        (pair) =>
          `${section.name}: ${pair.table} › ${pair.name}: ${pair.before?.result || 'none'} → ${pair.after?.result || 'none'}`,
      ),
  );
}

export function summaryTable(run: CompareRun): Table {
  const changes = verdictChanges(run);
  return {
    title: 'Sections: each run, its load at start, and the figures paired',
    columns: [
      'Section',
      'Before: commit, load',
      'After: commit, load',
      'Paired (same value, not listed)',
      'Only before',
      'Only after',
      'Targets met before',
      'Targets met after',
    ],
    rows: run.sections.map((section) => [
      section.name,
      sideCell(section.before),
      sideCell(section.after),
      `${section.pairs.filter((pair) => pair.before && pair.after).length} (${section.pairs.filter((pair) => !listed(pair)).length})`,
      String(section.pairs.filter((pair) => !pair.after).length),
      String(section.pairs.filter((pair) => !pair.before).length),
      targetsMet(section.pairs, 'before'),
      targetsMet(section.pairs, 'after'),
    ]),
    notes: changes.length
      ? changes.map((change) => `Verdict changed: ${change}`)
      : ['No verdict changed between the two runs.'],
  };
}

/**
 * Listed: every figure with a target or a verdict, every figure whose value
 * differs, and every figure only one side measured. A figure both sides
 * measured alike and nothing judges (a corpus size, a count) is only counted.
 */
export function listed(pair: FigurePair): boolean {
  if (!pair.before || !pair.after) return true;
  if (pair.before.value !== pair.after.value) return true;
  return [pair.before, pair.after].some((figure) => figure.target || figure.result);
}

/** One table per table of the section, figure by figure; a table with nothing listed is left out. */
export function figureTables(section: SectionComparison): Table[] {
  const shown = section.pairs.filter(listed);
  const titles = [...new Set(shown.map((pair) => pair.table))];
  return titles.map((title) => ({
    title: `${section.name}: ${title}`,
    columns: ['Figure', 'Before', 'After', 'Target', 'Met before', 'Met after'],
    rows: shown
      .filter((pair) => pair.table === title)
      .map((pair) => [
        pair.name,
        pair.before ? pair.before.value : ONLY_AFTER,
        pair.after ? pair.after.value : ONLY_BEFORE,
        pair.after?.target || pair.before?.target || '',
        pair.before?.result ?? '',
        pair.after?.result ?? '',
      ]),
  }));
}

function sideFigures(side: SideOutcome) {
  if (!side.report) return { error: side.error };
  const { commit, dirty, date, loadAverage } = side.report;
  return { commit, dirty, date, loadAverage };
}

export function compareSection(run: CompareRun): Section {
  const title = `Before and after (${run.beforeCommit} → ${run.afterCommit})`;
  return {
    name: 'compare',
    title,
    measured: `${run.measured}; before: commit ${run.beforeCommit} (${run.beforeDir}), after: commit ${run.afterCommit} (this checkout)`,
    intro: [
      "Each section ran as `pnpm bench <section> --json` in the before checkout and then, straight after, in this one, so both runs of a section saw the machine as nearly alike as it gets. The machine may be shared: absolute latencies move with its load (each run's load at start is in the first table); the ratios against bare node, measured in the same run as the hook they divide, are the figures that carry over.",
      'Figures are paired by section, table and row (and column, when a row holds several); a figure only one side measured is listed with the other side marked, not dropped. Figures both runs measured alike that no target judges (sizes, counts) are counted in the first table and not listed. "Met" is the row\'s verdict on that side (PASS or MISS against its target; `info` rows have none).',
    ],
    tables: [summaryTable(run), ...run.sections.flatMap(figureTables)],
    figures: {
      before: run.beforeCommit,
      after: run.afterCommit,
      sections: run.sections.map((section) => ({
        name: section.name,
        before: sideFigures(section.before),
        after: sideFigures(section.after),
        pairs: section.pairs,
      })),
    },
  };
}
