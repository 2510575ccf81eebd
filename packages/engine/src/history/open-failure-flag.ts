import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { appendStateFile, CAIRN_DIR, CAIRN_STATE_DIR, statCairnFile } from '@cairn/core';

/**
 * The cheap "does this session have an open failure?" flag: an empty file
 * per (agent, session) under `.cairn/state/history-open/`. A tool event that
 * succeeds in a session without the flag costs a few lstat calls (no link
 * on the way, as everywhere under `.cairn/`): history.db is not opened.
 * The name is a 64-bit FNV-1a hash (no crypto module on the hot path); a
 * collision only makes one event open history.db for nothing.
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

const flagName = (agentId: string, sessionKey: string) => fnv1a64(`${agentId}\u0000${sessionKey}`);

/** Project-relative, for the `.cairn/` resolver. */
const flagRelative = (agentId: string, sessionKey: string) =>
  `${CAIRN_DIR}/${CAIRN_STATE_DIR}/${FLAG_DIR}/${flagName(agentId, sessionKey)}`;

export function hasOpenFailureFlag(rootDir: string, agentId: string, sessionKey: string): boolean {
  return statCairnFile(rootDir, flagRelative(agentId, sessionKey)) !== undefined;
}

export function setOpenFailureFlag(
  rootDir: string,
  agentId: string,
  sessionKey: string,
  open: boolean,
): void {
  const relPath = flagRelative(agentId, sessionKey);
  if (!open) {
    // Checked first: an rm through a linked folder would delete another project's flag.
    if (statCairnFile(rootDir, relPath)) rmSync(join(rootDir, relPath), { force: true });
    return;
  }
  appendStateFile(rootDir, relPath, '');
}
