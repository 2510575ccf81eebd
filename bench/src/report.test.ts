import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSideReport } from './compare/side-report';
import { type RunMeta, renderBenchmarksDoc, type Section, writeJsonReport } from './report';
import { runMetaFixture } from './run-meta.fixture';

const meta: RunMeta = runMetaFixture({
  date: '2026-11-25T12:00:00.000Z',
  commit: 'abc1234',
  loadAverage: 0,
});

describe('renderBenchmarksDoc', () => {
  it('keeps the package tarball section packed-install wrote, before Reproduce', () => {
    const tarballs =
      '<!-- packages:tarballs:start -->\n## Package tarballs\n\n| a |\n<!-- packages:tarballs:end -->';
    const existing = `# Benchmarks\n\n${tarballs}\n\n## Reproduce\n`;
    const doc = renderBenchmarksDoc(meta, [], existing);
    expect(doc).toContain(tarballs);
    expect(doc.indexOf(tarballs)).toBeLessThan(doc.indexOf('## Reproduce'));
    expect(doc).toContain('<!-- bench:scale:start -->');
  });

  it('writes no tarball section when there was none', () => {
    expect(renderBenchmarksDoc(meta, [], undefined)).not.toContain('packages:tarballs');
  });
});

describe('writeJsonReport', () => {
  it("writes each section's figures and its tables, which the compare reads back", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-bench-json-'));
    try {
      const table = { title: 'T', columns: ['Measure', 'Figure'], rows: [['a', '1']] };
      const section: Section = {
        name: 'working',
        title: 'Working memory',
        intro: [],
        tables: [table],
        figures: { p50: 1 },
      };
      const path = join(dir, 'out.json');
      await writeJsonReport(path, meta, [section]);
      const json = await readFile(path, 'utf8');
      expect(JSON.parse(json).working).toEqual({ p50: 1 });
      expect(readSideReport(json, ['working']).tables.working).toEqual([table]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
