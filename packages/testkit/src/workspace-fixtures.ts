import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type MemoryUnit, memoryWorkspacePath, serializeUnit } from '@cairn/core';

/** A deterministic unit id for tests: `UNIT:00000000-0000-4000-8000-<n>`. */
export function fixtureUnitId(n: number): string {
  return `UNIT:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/**
 * A managed unit as on disk (markers plus the `----` separator), through
 * core's codec: an approved `fact` created 2026-03-01 unless `fields` say
 * otherwise.
 */
export function fixtureUnit(n: number, text: string, fields: Partial<MemoryUnit> = {}): string {
  const at = fields.createdAt ?? '2026-03-01T10:00:00.000Z';
  return serializeUnit({
    memoryId: fixtureUnitId(n),
    category: 'fact',
    review: 'approved',
    createdAt: at,
    updatedAt: at,
    text,
    ...fields,
  });
}

/** Writes a file, creating its folders. */
export async function writeFileAt(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** Writes a workspace file (`.cairn/memory/<path>`), creating folders. */
export function writeWorkspaceFile(root: string, path: string, text: string): Promise<void> {
  return writeFileAt(join(memoryWorkspacePath(root), path), text);
}
