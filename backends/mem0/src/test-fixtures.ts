import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type MemoryUnit, memoryWorkspacePath, serializeUnit } from '@cairn/core';

/** Test helpers (not part of the package API). */

export const unitId = (n: number) => `UNIT:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A managed unit as on disk, through core's codec. */
export function unit(n: number, text: string, fields: Partial<MemoryUnit> = {}): string {
  const at = fields.createdAt ?? '2026-03-01T10:00:00.000Z';
  return serializeUnit({
    memoryId: unitId(n),
    category: 'fact',
    review: 'approved',
    createdAt: at,
    updatedAt: at,
    text,
    ...fields,
  });
}

export async function writeAt(path: string, text: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

export function writeWorkspaceFile(root: string, path: string, text: string): Promise<void> {
  return writeAt(join(memoryWorkspacePath(root), path), text);
}
