import { lstatSync, readlinkSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  CAIRN_DIR,
  CAIRN_INDEX_DIR,
  CAIRN_STATE_DIR,
  LINK_FIX,
  type UnsafeEntryKind,
  unsafeEntriesBelow,
  unsafeKindOf,
} from '@cairn/core';
import type { DoctorArea, DoctorFinding } from './doctor-finding';

const NOT_A_FILE_FIX =
  'remove it: Cairn reads and writes only regular files and folders under .cairn/ (no FIFOs, sockets or devices)';

const KIND_NAMES: Record<Exclude<UnsafeEntryKind, 'symlink'>, string> = {
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  device: 'a device',
};

function areaOf(relPath: string): DoctorArea {
  if (relPath.startsWith(`${CAIRN_DIR}/${CAIRN_STATE_DIR}`)) return 'database';
  if (relPath.startsWith(`${CAIRN_DIR}/${CAIRN_INDEX_DIR}`)) return 'index';
  return 'workspace';
}

function finding(rootDir: string, path: string, kind: UnsafeEntryKind): DoctorFinding {
  const relPath = relative(rootDir, path).split(sep).join('/');
  const base = { severity: 'error' as const, area: areaOf(relPath), path: relPath };
  if (kind !== 'symlink') {
    const message = `is ${KIND_NAMES[kind]}, not a regular file; Cairn refuses it (INVALID_PATH)`;
    return { ...base, message, fix: NOT_A_FILE_FIX };
  }
  let target = '';
  try {
    target = ` to ${readlinkSync(path)}`;
  } catch {
    // Gone since it was listed: the finding still names it.
  }
  return {
    ...base,
    message: `is a symbolic link${target}; Cairn refuses it (INVALID_PATH): commands and MCP tools that reach it fail, hooks inject nothing`,
    fix: LINK_FIX,
  };
}

/**
 * Every symbolic link, FIFO, socket or device under `<root>/.cairn/`
 * (`.cairn` itself included), as doctor errors naming the path, where a
 * link points and what to do. Nothing is followed (lstat and readdir's
 * entry types). Git stores links, so a cloned repository can ship one;
 * Cairn refuses them all, and this says which.
 */
export function linkFindings(rootDir: string): DoctorFinding[] {
  const dir = join(rootDir, CAIRN_DIR);
  const top = lstatSync(dir, { throwIfNoEntry: false });
  if (!top) return [];
  const kind = unsafeKindOf(top);
  if (kind) return [finding(rootDir, dir, kind)];
  if (!top.isDirectory()) return [];
  return unsafeEntriesBelow(dir).map((entry) => finding(rootDir, entry.path, entry.kind));
}
