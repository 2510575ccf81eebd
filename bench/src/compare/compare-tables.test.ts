import { describe, expect, it } from 'vitest';
import { type RunMeta, renderBenchmarksDoc, type Table } from '../report';
import { runMetaFixture } from '../run-meta.fixture';
import { type CompareRun, compareSection, figureTables, summaryTable } from './compare-tables';
import { pairFigures } from './pair-figures';
import type { SideReport } from './side-report';

const table = (ratio: string, verdict: string, runs: string): Table => ({
  title: 'Prompt-submit hook as a whole process',
  columns: ['Measure', 'Figure', 'Target', 'Result'],
  rows: [
    ['Workspace', '106 files', '', ''],
    [`Bare \`node -e 0\` (p50 / p95, ${runs} runs)`, '111.20 / 116.08 ms', '', ''],
    ['hook / bare node (medians)', ratio, '<= 2x', verdict],
  ],
});

const side = (commit: string, load: number, tables: Table[]): SideReport => ({
  commit,
  dirty: false,
  date: '2026-11-29T04:30:00.000Z',
  loadAverage: load,
  tables: { harnesses: tables },
});

const before = side('ea20e88', 2.1, [table('1.23x', 'PASS', '20')]);
const after = side('f12891d', 2.4, [table('2.40x', 'MISS', '30')]);

const run: CompareRun = {
  beforeDir: '/work/before',
  beforeCommit: 'ea20e88',
  afterCommit: 'f12891d',
  measured: '2026-11-29 04:30 UTC; load average 2.0 at start',
  sections: [
    {
      name: 'harnesses',
      before: { report: before },
      after: { report: after },
      pairs: pairFigures(before.tables.harnesses!, after.tables.harnesses!),
    },
    {
      name: 'working',
      before: { error: 'exited with code 1' },
      after: { report: after },
      pairs: [],
    },
  ],
};

describe('figureTables', () => {
  it('lists changed, judged and one-sided figures, and only counts the rest', () => {
    const [rendered] = figureTables(run.sections[0]!);
    expect(rendered?.title).toBe('harnesses: Prompt-submit hook as a whole process');
    expect(rendered?.columns).toEqual([
      'Figure',
      'Before',
      'After',
      'Target',
      'Met before',
      'Met after',
    ]);
    expect(rendered?.rows).toEqual([
      ['Bare `node -e 0` (p50 / p95, 30 runs)', '— (only after)', '111.20 / 116.08 ms', '', '', ''],
      ['hook / bare node (medians)', '1.23x', '2.40x', '<= 2x', 'PASS', 'MISS'],
      [
        'Bare `node -e 0` (p50 / p95, 20 runs)',
        '111.20 / 116.08 ms',
        '— (only before)',
        '',
        '',
        '',
      ],
    ]);
  });
});

describe('summaryTable', () => {
  it('gives each side its commit and load, the counts, and the verdicts that changed', () => {
    const summary = summaryTable(run);
    expect(summary.rows).toEqual([
      [
        'harnesses',
        'ea20e88, load 2.1',
        'f12891d, load 2.4',
        '2 (1)',
        '1',
        '1',
        '1 of 1',
        '0 of 1',
      ],
      [
        'working',
        'failed: exited with code 1',
        'f12891d, load 2.4',
        '0 (0)',
        '0',
        '0',
        '0 of 0',
        '0 of 0',
      ],
    ]);
    expect(summary.notes).toEqual([
      'Verdict changed: harnesses: Prompt-submit hook as a whole process › hook / bare node (medians): PASS → MISS',
    ]);
  });
});

describe('compareSection', () => {
  it('is written into BENCHMARKS.md between its markers, with both commits, keeping the rest', () => {
    const meta: RunMeta = runMetaFixture({
      date: '2026-11-29T04:30:00.000Z',
      commit: 'f12891d',
      loadAverage: 2,
    });
    const existing = renderBenchmarksDoc(meta, []).replace(
      '_Not run yet: `pnpm bench scale`._',
      '## Scale\n\nkept',
    );
    const doc = renderBenchmarksDoc(meta, [compareSection(run)], existing);
    expect(doc).toContain('## Scale\n\nkept');
    const from = doc.indexOf('<!-- bench:compare:start -->');
    const to = doc.indexOf('<!-- bench:compare:end -->');
    expect(from).toBeGreaterThan(doc.indexOf('<!-- bench:injection:end -->'));
    const written = doc.slice(from, to);
    expect(written).toContain('## Before and after (ea20e88 → f12891d)');
    expect(written).toContain(
      '_Measured 2026-11-29 04:30 UTC; load average 2.0 at start; before: commit ea20e88 (/work/before), after: commit f12891d (this checkout)._',
    );
    expect(written).toContain(
      '| hook / bare node (medians) | 1.23x | 2.40x | <= 2x | PASS | MISS |',
    );
  });
});
