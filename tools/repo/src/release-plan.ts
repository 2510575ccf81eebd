import getReleasePlan from '@changesets/get-release-plan';

/** The parts of changesets' release plan this check reads. */
export interface PlanLike {
  changesets: { id: string; releases: { name: string; type: string }[] }[];
  releases: { name: string; type: string; oldVersion: string; newVersion: string }[];
}

export interface UnrequestedMajor {
  name: string;
  oldVersion: string;
  newVersion: string;
}

/**
 * The packages a pending release would bump a major step although no
 * changeset asked for a major bump of them: changesets does that to the
 * dependents of a peer dependency whose new version leaves their range.
 */
export function unrequestedMajors(plan: PlanLike): UnrequestedMajor[] {
  const requested = new Set(
    plan.changesets.flatMap((changeset) =>
      changeset.releases.filter((r) => r.type === 'major').map((r) => r.name),
    ),
  );
  return plan.releases
    .filter((release) => release.type === 'major' && !requested.has(release.name))
    .map(({ name, oldVersion, newVersion }) => ({ name, oldVersion, newVersion }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The release plan `changeset version` would apply in `repoRoot` now. */
export function pendingReleasePlan(repoRoot: string): Promise<PlanLike> {
  return getReleasePlan(repoRoot);
}

export function describeUnrequested(found: UnrequestedMajor[]): string {
  if (found.length === 0) return 'release plan: no major bump that no changeset asked for';
  return [
    `release plan: ${found.length} package(s) would get a major bump no changeset asked for:`,
    ...found.map((f) => `  ${f.name} ${f.oldVersion} -> ${f.newVersion}`),
    'A peer dependency range no longer covers the new version of a workspace package;',
    'see docs/RELEASING.md ("Peer ranges").',
  ].join('\n');
}
