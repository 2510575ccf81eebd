import pkg from '../package.json' with { type: 'json' };

export { CSRF_HEADER, SESSION_COOKIE } from './dashboard-auth';
export { engineMaintenance } from './engine-maintenance';
export { MAX_BODY_BYTES, statusOfCode } from './http-io';
export {
  type ConsolidationProposal,
  type MaintenanceSource,
  noMaintenance,
  type ProposalDecision,
  type StalenessState,
  type StaleUnit,
} from './maintenance-source';
export { checkUserEdit, managedRegions } from './managed-regions';
export type { Refusal } from './request-guard';
export { type DashboardHandle, type DashboardOptions, serveDashboard } from './serve-dashboard';

export const VERSION: string = pkg.version;
