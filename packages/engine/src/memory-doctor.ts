import { type CairnSettings, isUnsafePathError, type ResolvedSettings } from '@cairn/core';
import type { DoctorReport } from './cairn-api';
import {
  databaseFindings,
  duplicateUnitFindings,
  linkFindings,
  needsUser,
  settingsFindings,
  storeSizes,
  workspaceFindings,
} from './doctor';
import type { UnitStore } from './units';

/** What doctor reads of a project's memory part (memory-api.ts's state). */
export interface DoctorSubject {
  rootDir: string;
  settings: CairnSettings;
  store: Pick<UnitStore, 'scan'>;
}

/** See `MemoryApi.doctor`: the workspace, databases, links, units and sizes, and the settings `resolved` ignored. */
export async function memoryDoctor(
  state: DoctorSubject,
  resolved: ResolvedSettings,
): Promise<DoctorReport> {
  const { rootDir, store, settings } = state;
  const links = linkFindings(rootDir);
  const refusedWhenLinked =
    <T>(fallback: T) =>
    (error: unknown) => {
      if (links.length > 0 && isUnsafePathError(error)) return fallback;
      throw error;
    };
  const documents = await store.scan().catch(refusedWhenLinked([]));
  const issues = documents.flatMap((document) => document.issues);
  const units = documents.reduce((sum, document) => sum + document.units.length, 0);
  const workspace = await workspaceFindings(rootDir, settings.limits.headTokens).catch(
    refusedWhenLinked([]),
  );
  const findings = [
    ...links,
    ...workspace,
    ...duplicateUnitFindings(documents),
    ...databaseFindings(rootDir),
    ...settingsFindings(resolved),
  ];
  const ok = issues.length === 0 && !needsUser(findings);
  const stores = await storeSizes(rootDir);
  return { ok, issues, findings, stores, files: documents.length, units };
}
