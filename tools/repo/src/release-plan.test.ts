import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type PlanLike, pendingReleasePlan, unrequestedMajors } from './release-plan';
import { REPO_ROOT } from './workspace-packages';

const release = (name: string, type: string, oldVersion = '0.0.0', newVersion = '1.0.0') => ({
  name,
  type,
  oldVersion,
  newVersion,
});

describe('unrequestedMajors', () => {
  it('flags a major bump no changeset asked for', () => {
    const plan: PlanLike = {
      changesets: [{ id: 'a', releases: [{ name: '@x/core', type: 'minor' }] }],
      releases: [release('@x/core', 'minor', '0.0.0', '0.1.0'), release('@x/plugin', 'major')],
    };
    expect(unrequestedMajors(plan)).toEqual([
      { name: '@x/plugin', oldVersion: '0.0.0', newVersion: '1.0.0' },
    ]);
  });

  it('accepts a major bump that a changeset asked for', () => {
    const plan: PlanLike = {
      changesets: [
        { id: 'a', releases: [{ name: '@x/core', type: 'patch' }] },
        { id: 'b', releases: [{ name: '@x/core', type: 'major' }] },
      ],
      releases: [release('@x/core', 'major')],
    };
    expect(unrequestedMajors(plan)).toEqual([]);
  });

  it('ignores minor and patch bumps, asked for or not', () => {
    const plan: PlanLike = {
      changesets: [],
      releases: [release('@x/a', 'minor', '0.1.0', '0.2.0'), release('@x/b', 'patch')],
    };
    expect(unrequestedMajors(plan)).toEqual([]);
  });
});

/** A two-package pnpm workspace: core, and a plugin peering on it. */
async function fixtureRepo(peerRange: string, config: Record<string, unknown>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-release-plan-'));
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(root, 'package.json'), json({ name: 'fixture', private: true }));
  await writeFile(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
  for (const [name, manifest] of [
    ['core', { name: '@x/core', version: '0.0.0' }],
    ['plugin', { name: '@x/plugin', version: '0.0.0', peerDependencies: { '@x/core': peerRange } }],
  ] as const) {
    await mkdir(join(root, 'packages', name), { recursive: true });
    await writeFile(join(root, 'packages', name, 'package.json'), json(manifest));
  }
  await mkdir(join(root, '.changeset'));
  await writeFile(join(root, '.changeset', 'config.json'), json({ ...config, ignore: [] }));
  await writeFile(
    join(root, '.changeset', 'core-feature.md'),
    "---\n'@x/core': minor\n---\n\nA feature.\n",
  );
  return root;
}

describe('pendingReleasePlan with changesets', () => {
  const roots: string[] = [];
  afterEach(async () => {
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });
  const repoConfig = async () =>
    JSON.parse(await readFile(join(REPO_ROOT, '.changeset', 'config.json'), 'utf8'));

  it('flags the 1.0.0 a peer range of workspace:^ caused under the default config', async () => {
    const root = await fixtureRepo('workspace:^', { baseBranch: 'main' });
    roots.push(root);
    expect(unrequestedMajors(await pendingReleasePlan(root))).toEqual([
      { name: '@x/plugin', oldVersion: '0.0.0', newVersion: '1.0.0' },
    ]);
  });

  it("keeps peer dependents in range under this repository's config and 0.x ranges", async () => {
    const root = await fixtureRepo('workspace:0.x', await repoConfig());
    roots.push(root);
    const plan = await pendingReleasePlan(root);
    expect(unrequestedMajors(plan)).toEqual([]);
    expect(plan.releases.map((r) => `${r.name}@${r.newVersion}`)).toEqual(['@x/core@0.1.0']);
  });

  it("still flags a peer range that the new version leaves, under this repository's config", async () => {
    const root = await fixtureRepo('workspace:^', await repoConfig());
    roots.push(root);
    expect(unrequestedMajors(await pendingReleasePlan(root)).map((f) => f.name)).toEqual([
      '@x/plugin',
    ]);
  });
});
