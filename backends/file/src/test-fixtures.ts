import type { MemoryUnit } from '@cairn/core';
import { fixtureUnit } from '@cairn/testkit';

/** Test helpers shared by the index tests (not part of the package API). */

export { fixtureUnitId as unitId, writeWorkspaceFile } from '@cairn/testkit';

/** A managed unit as on disk; the index tests default to a `decision`. */
export function unit(n: number, text: string, fields: Partial<MemoryUnit> = {}): string {
  return fixtureUnit(n, text, { category: 'decision', ...fields });
}
