import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type MemoryUnit, memoryWorkspacePath, serializeUnit } from '@cairn/core';

/** Test helpers shared by the index tests (not part of the package API). */

/** A deterministic unit id: `UNIT:00000000-0000-4000-8000-<n>`. */
export function unitId(n: number): string {
  return `UNIT:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** A managed unit as on disk (markers plus the `----` separator). */
export function unit(n: number, text: string, fields: Partial<MemoryUnit> = {}): string {
  const at = fields.createdAt ?? '2026-03-01T10:00:00.000Z';
  return serializeUnit({
    memoryId: unitId(n),
    category: 'decision',
    review: 'approved',
    createdAt: at,
    updatedAt: at,
    text,
    ...fields,
  });
}

/** Writes a workspace file (`.cairn/memory/<path>`), creating folders. */
export async function writeWorkspaceFile(root: string, path: string, text: string): Promise<void> {
  const target = join(memoryWorkspacePath(root), path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text);
}
