/**
 * Fails when the pending release (the changesets in .changeset/) would bump
 * a package a major step that no changeset asked for. Run by `.ci/run`.
 */
import { describeUnrequested, pendingReleasePlan, unrequestedMajors } from './release-plan';
import { REPO_ROOT } from './workspace-packages';

const found = unrequestedMajors(await pendingReleasePlan(REPO_ROOT));
const message = describeUnrequested(found);
if (found.length > 0) {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`${message}\n`);
}
