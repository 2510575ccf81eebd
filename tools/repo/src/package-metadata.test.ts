import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishablePackages, REPO_ROOT } from './workspace-packages';

const REPO_URL = 'https://github.com/cairn-memory/cairn';
const LICENSE = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');

/**
 * A peer range on a workspace package must keep covering that package's next
 * 0.x minor, or changesets bumps the peer dependent to 1.0.0 (docs/RELEASING.md).
 */
const SANE_WORKSPACE_PEER = 'workspace:0.x';

describe('publishable packages', () => {
  const packages = publishablePackages();

  it('are the nineteen published packages', () => {
    expect(packages).toHaveLength(19);
    expect(LICENSE).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the Cairn authors\n/);
  });

  describe.each(packages.map((pkg) => [pkg.path, pkg] as const))('%s', (path, pkg) => {
    const { manifest } = pkg;

    it('is MIT and carries the root LICENSE and a README', () => {
      expect(manifest.license).toBe('MIT');
      expect(readFileSync(join(pkg.dir, 'LICENSE'), 'utf8')).toBe(LICENSE);
      const readme = readFileSync(join(pkg.dir, 'README.md'), 'utf8');
      expect(readme.startsWith(`# ${manifest.name}\n`)).toBe(true);
      expect(readme).toMatch(new RegExp(`npm i (-D |-g )?${manifest.name}\\b`));
      expect(readme).toContain(REPO_URL);
    });

    it('names its repository folder, homepage and issue tracker', () => {
      expect(manifest.repository).toEqual({
        type: 'git',
        url: `git+${REPO_URL}.git`,
        directory: path,
      });
      expect(manifest.homepage).toBe(`${REPO_URL}/tree/main/${path}#readme`);
      expect(manifest.bugs).toEqual({ url: `${REPO_URL}/issues` });
    });

    it('ships dist without source maps', () => {
      expect(manifest.files?.slice(0, 2)).toEqual(['dist', '!dist/**/*.map']);
      for (const entry of manifest.files ?? []) {
        if (!entry.startsWith('!') && entry !== 'dist')
          expect(existsSync(join(pkg.dir, entry))).toBe(true);
      }
    });

    it('peers on workspace packages with a range their next 0.x minor stays in', () => {
      for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
        if (name.startsWith('@cairn/')) expect(range, name).toBe(SANE_WORKSPACE_PEER);
      }
      for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
        if (name.startsWith('@cairn/')) expect(range, name).toBe('workspace:^');
      }
    });
  });
});
