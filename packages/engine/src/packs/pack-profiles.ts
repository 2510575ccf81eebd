import { PACK_PLANES, type PackPlane } from './pack-types';

/**
 * The named profiles of the one pack pipeline (docs/PACKS.md "Profiles"):
 * every injection is `retrieveContextPack` under one of them, and the
 * hooks only choose the profile and its inputs. `cairn pack --profile
 * <name>` builds the same pack for the same state.
 */
export const PACK_PROFILE_NAMES = [
  'session-start',
  'prompt-submit',
  'post-tool',
  'pre-compaction',
  'after-compaction',
] as const;
export type PackProfileName = (typeof PACK_PROFILE_NAMES)[number];

export interface PackProfile {
  name: PackProfileName;
  /** The planes that run (the others are `off`, "not in this profile"). */
  planes: readonly PackPlane[];
  /**
   * The pinned heads, and where the memory head is read: `file` (the
   * managed region of MEMORY.md), `state` (the region Cairn last wrote,
   * from heads.db: the prompt hook reads no memory file), or none.
   */
  heads: 'file' | 'state' | 'none';
  /**
   * Where the query comes from: `input` (the prompt, the failure), or
   * `thread` (the thread's status, next action and open loops, and a
   * branch that names the work): session start has no prompt.
   */
  query: 'input' | 'thread';
  /** Whether what is shown counts as shown for the session epoch (and is left out next time). */
  claim: boolean;
  /** Said in the pack's title. */
  purpose?: string;
  /** The newest nodes of the thread (and run digests) the history plane reads. */
  historyNodes: number;
  /** Whether quoted transcript excerpts stand in when no unit answers. */
  transcriptFallback: boolean;
}

const ALL = PACK_PLANES;

export const PACK_PROFILES: Readonly<Record<PackProfileName, PackProfile>> = {
  'session-start': {
    name: 'session-start',
    planes: ALL,
    heads: 'file',
    query: 'thread',
    claim: true,
    historyNodes: 6,
    transcriptFallback: false,
  },
  'prompt-submit': {
    name: 'prompt-submit',
    planes: ALL,
    heads: 'state',
    query: 'input',
    claim: true,
    historyNodes: 6,
    transcriptFallback: true,
  },
  'post-tool': {
    name: 'post-tool',
    planes: ['history'],
    heads: 'none',
    query: 'input',
    claim: false,
    purpose: 'Known fix for this error',
    historyNodes: 0,
    transcriptFallback: false,
  },
  'pre-compaction': {
    name: 'pre-compaction',
    planes: [],
    heads: 'file',
    query: 'thread',
    claim: false,
    purpose: 'keep across compaction',
    historyNodes: 0,
    transcriptFallback: false,
  },
  'after-compaction': {
    name: 'after-compaction',
    planes: ALL,
    heads: 'file',
    query: 'thread',
    claim: true,
    purpose: 'after compaction',
    historyNodes: 6,
    transcriptFallback: false,
  },
};

export function isPackProfileName(name: string): name is PackProfileName {
  return (PACK_PROFILE_NAMES as readonly string[]).includes(name);
}
