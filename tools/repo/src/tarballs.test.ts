import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  measureTarball,
  SIZES_END,
  SIZES_START,
  sizesTable,
  type TarballSize,
  withSizesSection,
} from './tarballs';

describe('measureTarball', () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sums the files of a tarball npm pack wrote, and their source maps', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-tarball-'));
    const pkg = join(dir, 'pkg');
    const longName = `${'a'.repeat(120)}.js`;
    await mkdir(join(pkg, 'dist'), { recursive: true });
    await writeFile(join(pkg, 'package.json'), '{"name":"t","version":"1.0.0"}\n');
    await writeFile(join(pkg, 'dist', 'index.js'), 'x'.repeat(1500));
    await writeFile(join(pkg, 'dist', 'index.js.map'), 'm'.repeat(700));
    await writeFile(join(pkg, 'dist', longName), 'y');
    execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: pkg, stdio: 'ignore' });
    const size = measureTarball('t', join(dir, 't-1.0.0.tgz'));
    expect(size.files).toBe(4);
    expect(size.maps).toBe(700);
    expect(size.unpacked).toBe(1500 + 700 + 1 + '{"name":"t","version":"1.0.0"}\n'.length);
    expect(size.packed).toBeGreaterThan(0);
  });
});

const size = (name: string, packed: number, unpacked: number): TarballSize => ({
  name,
  file: `${name}.tgz`,
  packed,
  unpacked,
  files: 2,
  maps: 0,
});

describe('sizesTable', () => {
  it('lists packages by name with a total, in kB', () => {
    const table = sizesTable([size('@x/b', 2000, 5000), size('@x/a', 1500, 3000)]);
    expect(table.split('\n')).toEqual([
      '| Package | Packed | Unpacked | Files | Source maps |',
      '| --- | ---: | ---: | ---: | ---: |',
      '| `@x/a` | 1.5 kB | 3.0 kB | 2 | 0.0 kB |',
      '| `@x/b` | 2.0 kB | 5.0 kB | 2 | 0.0 kB |',
      '| **Total** | 3.5 kB | 8.0 kB | 4 | 0.0 kB |',
    ]);
  });
});

describe('withSizesSection', () => {
  it('adds the section before Reproduce, then replaces only it', () => {
    const doc =
      '# Benchmarks\n\n<!-- bench:scale:start -->\nS\n<!-- bench:scale:end -->\n\n## Reproduce\n\nrun\n';
    const once = withSizesSection(doc, 'first');
    expect(once).toContain(`${SIZES_START}\nfirst\n${SIZES_END}\n\n## Reproduce`);
    const twice = withSizesSection(once, 'second');
    expect(twice).toBe(once.replace('first', 'second'));
  });

  it('appends the section to a document without Reproduce', () => {
    expect(withSizesSection('# B\n', 'x')).toBe(`# B\n\n${SIZES_START}\nx\n${SIZES_END}\n`);
  });
});
