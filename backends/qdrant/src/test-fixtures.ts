/** Test helpers (not part of the package API). */

export {
  fixtureUnit as unit,
  fixtureUnitId as unitId,
  writeWorkspaceFile,
} from '@cairn/testkit';
