/** Test helpers (not part of the package API). */

export {
  fixtureUnit as unit,
  fixtureUnitId as unitId,
  writeFileAt as writeAt,
  writeWorkspaceFile,
} from '@cairn/testkit';
