import {
  escapeMarkers,
  MEMORY_AUDIT_FILENAME,
  MEMORY_DREAMS_FILENAME,
  MEMORY_INSIGHTS_FILENAME,
  missingAsUndefined,
  readMemoryFileExact,
} from '@cairn/core';
import type { WorkspaceWriter } from '../store';

/**
 * The three files maintenance writes, each through a Cairn-managed region
 * between two marker comments: everything outside the region (a person's
 * notes, the DREAMS.md heading) is kept byte for byte, and a file without
 * the region gets it appended.
 */
export const MAINTENANCE_REGIONS = {
  [MEMORY_DREAMS_FILENAME]: 'dreams',
  [MEMORY_INSIGHTS_FILENAME]: 'insights',
  [MEMORY_AUDIT_FILENAME]: 'audit',
} as const;

export type MaintenanceFile = keyof typeof MAINTENANCE_REGIONS;

/** Budgets of the managed regions (bytes): older content is pruned, counted in the audit. */
export const INSIGHTS_MAX_BYTES = 16 * 1024;
export const AUDIT_MAX_BYTES = 64 * 1024;
export const DREAMS_MAX_BYTES = 48 * 1024;

const markers = (file: MaintenanceFile) => {
  const name = MAINTENANCE_REGIONS[file];
  return { start: `<!-- cairn:${name}:start -->`, end: `<!-- cairn:${name}:end -->` };
};

/** The region's current body (without markers), or undefined when the file or region is missing. */
export function regionBody(content: string | undefined, file: MaintenanceFile): string | undefined {
  if (content === undefined) return undefined;
  const { start, end } = markers(file);
  const from = content.indexOf(start);
  const to = content.indexOf(end, from + start.length);
  if (from === -1 || to === -1) return undefined;
  return content
    .slice(from + start.length, to)
    .replace(/^\r?\n/, '')
    .replace(/\r?\n$/, '');
}

/** `content` with its region's body replaced by `body` (bytes outside kept); the region appended when missing. */
export function replaceRegion(
  content: string | undefined,
  file: MaintenanceFile,
  body: string,
): string {
  const { start, end } = markers(file);
  const safe = escapeMarkers(body);
  const region = `${start}\n${safe}${safe.endsWith('\n') || safe === '' ? '' : '\n'}${end}`;
  if (content === undefined || content === '') return `${region}\n`;
  const from = content.indexOf(start);
  const to = from === -1 ? -1 : content.indexOf(end, from + start.length);
  if (from === -1 || to === -1) {
    const separator = content.endsWith('\n\n') ? '' : content.endsWith('\n') ? '\n' : '\n\n';
    return `${content}${separator}${region}\n`;
  }
  return `${content.slice(0, from)}${region}${content.slice(to + end.length)}`;
}

export async function readWorkspaceFile(
  writer: WorkspaceWriter,
  file: MaintenanceFile,
): Promise<string | undefined> {
  return readMemoryFileExact(writer.rootDir, file).catch(missingAsUndefined);
}

/** Writes the region when its body differs; false when nothing changed (no write at all). */
export async function writeRegion(
  writer: WorkspaceWriter,
  file: MaintenanceFile,
  body: string,
): Promise<boolean> {
  const current = await readWorkspaceFile(writer, file);
  const next = replaceRegion(current, file, body);
  if (next === current) return false;
  await writer.writeFile(file, next);
  return true;
}

/** Keeps the first entries (newest first) whose total stays within `maxBytes`; returns what was dropped. */
export function withinBudget(
  entries: readonly string[],
  maxBytes: number,
  separator = '\n',
): { kept: string[]; dropped: number } {
  const kept: string[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = Buffer.byteLength(entry, 'utf8') + separator.length;
    if (bytes + size > maxBytes) break;
    kept.push(entry);
    bytes += size;
  }
  return { kept, dropped: entries.length - kept.length };
}

/** One line of a unit's text for a listing: markers escaped, cut at `max` characters. */
export function clipLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
