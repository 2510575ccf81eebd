import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';

/**
 * The cheap "does this session have an open failure?" flag: an empty file
 * per (agent, session) under `.cairn/state/history-open/`. A tool event that
 * succeeds in a session without the flag costs one stat: history.db is not
 * opened. The name is a 64-bit FNV-1a hash (no crypto module on the hot
 * path); a collision only makes one event open history.db for nothing.
 */
const FLAG_DIR = 'history-open';

function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

export function openFailureFlagPath(rootDir: string, agentId: string, sessionKey: string): string {
  return join(cairnStatePath(rootDir), FLAG_DIR, fnv1a64(`${agentId}\u0000${sessionKey}`));
}

export function hasOpenFailureFlag(rootDir: string, agentId: string, sessionKey: string): boolean {
  return existsSync(openFailureFlagPath(rootDir, agentId, sessionKey));
}

export function setOpenFailureFlag(
  rootDir: string,
  agentId: string,
  sessionKey: string,
  open: boolean,
): void {
  const path = openFailureFlagPath(rootDir, agentId, sessionKey);
  if (!open) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(join(cairnStatePath(rootDir), FLAG_DIR), { recursive: true });
  writeFileSync(path, '');
}
