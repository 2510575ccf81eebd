import { describe, expect, it } from 'vitest';
import { type RunMeta, renderBenchmarksDoc } from './report';

const meta: RunMeta = {
  date: '2026-11-25T12:00:00.000Z',
  commit: 'abc1234',
  dirty: false,
  cpu: 'CPU',
  cores: 2,
  memoryGb: 4,
  node: 'v20.20.2',
  platform: 'linux x64',
  loadAverage: 0,
  quick: false,
};

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
