/** The checks `cairn doctor` runs: findings about settings, databases, links, units and sizes. */
export { databaseFindings } from './database-checks';
export { type DoctorFinding, needsUser } from './doctor-finding';
export { linkFindings } from './link-findings';
export { settingsFindings } from './settings-checks';
export { formatBytes, type StoreSize, storeSizes } from './store-sizes';
export { duplicateUnitFindings } from './unit-checks';
export { workspaceFindings } from './workspace-checks';
