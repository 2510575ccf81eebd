import { type LocatedUnit, MEMORY_WORKSPACE_PATH, type ParsedDocument } from '@cairn/core';
import { placeOf, removeCopyCommand } from '../units';
import type { DoctorFinding } from './doctor-finding';

/** Ids reported at most; each finding names every place of its id. */
const MAX_REPORTED = 20;

/**
 * Unit ids that are in more than one place (a merge that kept both sides,
 * a copied daily file): replace, remove and review refuse them until one
 * copy is left, and each finding gives the command that removes a copy.
 */
export function duplicateUnitFindings(documents: readonly ParsedDocument[]): DoctorFinding[] {
  const byId = new Map<string, LocatedUnit[]>();
  for (const document of documents) {
    for (const unit of document.units) {
      const copies = byId.get(unit.memoryId);
      if (copies) copies.push(unit);
      else byId.set(unit.memoryId, [unit]);
    }
  }
  const findings: DoctorFinding[] = [];
  for (const [memoryId, copies] of byId) {
    if (copies.length < 2 || findings.length >= MAX_REPORTED) continue;
    const others = copies.slice(1).map(removeCopyCommand);
    findings.push({
      severity: 'warning',
      area: 'workspace',
      path: `${MEMORY_WORKSPACE_PATH}/${copies[0]!.path}`,
      message: `${memoryId} is in ${copies.length} places (${copies.map(placeOf).join(', ')}): replace, remove and review refuse it until one copy is left`,
      fix: `keep one copy: run ${others.map((command) => `\`${command}\``).join(' and ')} (or delete the other copies from their files)`,
    });
  }
  return findings;
}
