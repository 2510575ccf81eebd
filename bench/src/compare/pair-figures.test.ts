import { describe, expect, it } from 'vitest';
import type { Table } from '../report';
import { pairFigures, tableFigures } from './pair-figures';

const hooks = (ratio: string, verdict: string): Table => ({
  title: 'Prompt-submit hook as a whole process',
  columns: ['Measure', 'Figure', 'Target', 'Result'],
  rows: [
    ['Bare `node -e 0` (p50 / p95, 20 runs)', '111.20 / 116.08 ms', '', ''],
    ['hook / bare node (medians)', ratio, '<= 2x', verdict],
  ],
});

describe('tableFigures', () => {
  it('names a Measure/Figure row by its measure, with its target and verdict', () => {
    expect(tableFigures(hooks('1.23x', 'PASS'))[1]).toEqual({
      table: 'Prompt-submit hook as a whole process',
      name: 'hook / bare node (medians)',
      value: '1.23x',
      target: '<= 2x',
      result: 'PASS',
    });
  });

  it('names rows by their label columns while the first repeats, and each value by its column', () => {
    const table: Table = {
      title: 'Time added per event',
      columns: ['Harness', 'Event (harness hook)', 'p50 / p95', 'Samples'],
      rows: [
        ['opencode', 'sessionStart', '5.65 / 10.59 ms', '10'],
        ['opencode', 'toolUse', '0.77 / 1.06 ms', '10'],
        ['openclaw', 'sessionStart', '18.11 / 26.10 ms', '10'],
      ],
    };
    expect(tableFigures(table).map((figure) => figure.name)).toEqual([
      'opencode › sessionStart › p50 / p95',
      'opencode › sessionStart › Samples',
      'opencode › toolUse › p50 / p95',
      'opencode › toolUse › Samples',
      'openclaw › sessionStart › p50 / p95',
      'openclaw › sessionStart › Samples',
    ]);
  });

  it('tells rows with the same name apart by their target, never by a measured value', () => {
    const table: Table = {
      title: 'Target: the embedded default',
      columns: ['Adapter', 'Figure', 'Target', 'Result'],
      rows: [
        ['file keyword', 'R@10 0.801', '>= 0.80', 'PASS'],
        ['file keyword', 'Hit@1 0.532', '>= 0.50', 'PASS'],
      ],
    };
    expect(tableFigures(table).map((figure) => figure.name)).toEqual([
      'file keyword (>= 0.80)',
      'file keyword (>= 0.50)',
    ]);
  });

  it('gives a row with several figures and a verdict its verdict as one more figure', () => {
    const table: Table = {
      title: 'retrieveContextPack',
      columns: ['part', 'p50 ms', 'p95 ms', 'verdict'],
      rows: [['all', '3.1', '9.8', 'PASS']],
    };
    expect(tableFigures(table)).toEqual([
      { table: 'retrieveContextPack', name: 'all › p50 ms', value: '3.1', target: '', result: '' },
      { table: 'retrieveContextPack', name: 'all › p95 ms', value: '9.8', target: '', result: '' },
      {
        table: 'retrieveContextPack',
        name: 'all › verdict',
        value: 'PASS',
        target: '',
        result: 'PASS',
      },
    ]);
  });
});

describe('pairFigures', () => {
  it('pairs figures by table and name, before and after', () => {
    const pairs = pairFigures([hooks('1.23x', 'PASS')], [hooks('2.40x', 'MISS')]);
    expect(pairs).toHaveLength(2);
    expect(pairs[1]?.before?.value).toBe('1.23x');
    expect(pairs[1]?.after?.value).toBe('2.40x');
    expect(pairs[1]?.before?.result).toBe('PASS');
    expect(pairs[1]?.after?.result).toBe('MISS');
  });

  it('keeps figures only one side measured, a renamed row as one of each, in its table', () => {
    const before = hooks('1.23x', 'PASS');
    const after: Table = {
      ...hooks('1.20x', 'PASS'),
      rows: [
        ['hook / bare node (medians)', '1.20x', '<= 2x', 'PASS'],
        ['Bare `node -e 0` (p50 / p95, 30 runs)', '110.00 / 115.00 ms', '', ''],
      ],
    };
    const extra: Table = { title: 'New table', columns: ['Measure', 'Figure'], rows: [['a', '1']] };
    const pairs = pairFigures([before], [after, extra]);
    expect(pairs.map((pair) => [pair.name, !!pair.before, !!pair.after])).toEqual([
      ['hook / bare node (medians)', true, true],
      ['Bare `node -e 0` (p50 / p95, 30 runs)', false, true],
      ['Bare `node -e 0` (p50 / p95, 20 runs)', true, false],
      ['a', false, true],
    ]);
  });

  it('keeps every figure of a table only the before run printed', () => {
    const pairs = pairFigures([hooks('1.23x', 'PASS')], []);
    expect(pairs).toHaveLength(2);
    expect(pairs.every((pair) => pair.before && !pair.after)).toBe(true);
  });
});
