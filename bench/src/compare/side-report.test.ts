import { describe, expect, it } from 'vitest';
import { type RunMeta, renderBenchmarksDoc, type Section, type Table } from '../report';
import { runMetaFixture } from '../run-meta.fixture';
import { docTables, readSideReport, splitMarkdownRow } from './side-report';

const meta: RunMeta = runMetaFixture({
  date: '2026-11-29T04:30:12.000Z',
  commit: 'ea20e88',
  loadAverage: 2.5,
});

const tables: Table[] = [
  {
    title: 'Prompt-submit hook as a whole process',
    columns: ['Measure', 'Figure', 'Target', 'Result'],
    rows: [
      ['`a | b` piped', '1.23x', '<= 2x', 'PASS'],
      ['Bare `node -e 0`', '111.20 / 116.08 ms', '', ''],
    ],
    notes: ['A note.'],
  },
  { title: 'Second', columns: ['Harness', 'p50'], rows: [['opencode', '5.6 ms']] },
];

const section: Section = {
  name: 'harnesses',
  title: 'Harness hooks',
  intro: ['Intro.'],
  tables,
  figures: {},
};

const withoutNotes = tables.map(({ notes: _notes, ...table }) => table);

describe('splitMarkdownRow', () => {
  it('splits on unescaped pipes and unescapes the others', () => {
    expect(splitMarkdownRow('| a \\| b | 1.0 |  |')).toEqual(['a | b', '1.0', '']);
  });
});

describe('docTables', () => {
  it('reads back the tables report.ts wrote for the section', () => {
    const doc = renderBenchmarksDoc(meta, [section]);
    expect(docTables(doc, 'harnesses', meta)).toEqual(withoutNotes);
  });

  it('refuses a section an earlier run wrote (other commit or time)', () => {
    const doc = renderBenchmarksDoc(meta, [section]);
    expect(docTables(doc, 'harnesses', { ...meta, commit: 'f12891d' })).toBeUndefined();
    expect(
      docTables(doc, 'harnesses', { ...meta, date: '2026-11-28T04:30:00.000Z' }),
    ).toBeUndefined();
    expect(docTables(doc, 'working', meta)).toBeUndefined();
  });
});

describe('readSideReport', () => {
  it('takes the tables from the JSON when the bench wrote them there', () => {
    const json = JSON.stringify({ meta, harnesses: {}, tables: { harnesses: tables } });
    const report = readSideReport(json, ['harnesses']);
    expect(report).toMatchObject({ commit: 'ea20e88', loadAverage: 2.5, dirty: false });
    expect(report.tables.harnesses).toEqual(tables);
  });

  it("reads an older bench's tables from the doc that same run wrote", () => {
    const json = JSON.stringify({ meta, harnesses: { figures: 1 } });
    const doc = renderBenchmarksDoc(meta, [section]);
    expect(readSideReport(json, ['harnesses'], doc).tables.harnesses).toEqual(withoutNotes);
    expect(readSideReport(json, ['harnesses']).tables.harnesses).toBeUndefined();
  });

  it('says what is wrong with a report that is not one', () => {
    expect(() => readSideReport('{', ['harnesses'])).toThrow(/not JSON/);
    expect(() => readSideReport('{"meta":{}}', ['harnesses'])).toThrow(/no usable meta/);
  });
});
