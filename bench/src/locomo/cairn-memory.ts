import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemorySearchResult } from '@cairn/core';
import { type Cairn, type OpenCairnOptions, openCairn } from '@cairn/engine';
import { timed } from '../stats';
import type { LocomoConversation, LocomoSession, LocomoTurn } from './dataset';

/** Used for `now` when a session date does not parse. */
const FALLBACK_DATE = new Date(Date.UTC(2023, 0, 1, 12));

/** The unit text of one turn; BM25 indexes the same string. */
export function turnText(session: LocomoSession, turn: LocomoTurn): string {
  const image = turn.blip_caption ? ` [image: ${turn.blip_caption}]` : '';
  return `[${session.dateText}] ${turn.speaker}: ${turn.text}${image}`;
}

export interface BuildCounts {
  turns: number;
  created: number;
  /** Turns the engine matched to an existing memory: not stored. */
  duplicate: number;
  failed: number;
  failedCodes: Record<string, number>;
  unparsedDates: number;
}

/** How search hits were tied back to turns. */
export interface MappingCounts {
  byMemoryId: number;
  byLineRange: number;
  unmapped: number;
}

export interface ConversationMemory {
  cairn: Cairn;
  /** How the workspace was opened (home, time zone, pinned clock), to open it again with another backend. */
  openOptions: Omit<OpenCairnOptions, 'env'>;
  counts: BuildCounts;
  addMs: number;
  mapping: MappingCounts;
  /** The dia_id of a hit, or undefined when it is not a stored turn (counted in `mapping`). */
  diaIdOf(result: MemorySearchResult): string | undefined;
  /** The dia_id of the unit holding a workspace line (hits of tools outside Cairn; not counted). */
  diaIdAtLine(path: string, line: number): string | undefined;
}

async function addTurns(
  cairn: Cairn,
  conversation: LocomoConversation,
  setClock: (date: Date) => void,
) {
  const idToDia = new Map<string, string>();
  const counts: BuildCounts = {
    turns: 0,
    created: 0,
    duplicate: 0,
    failed: 0,
    failedCodes: {},
    unparsedDates: 0,
  };
  for (const session of conversation.sessions) {
    if (!session.date) counts.unparsedDates += 1;
    setClock(session.date ?? FALLBACK_DATE);
    for (const turn of session.turns) {
      counts.turns += 1;
      const result = await cairn.add({ text: turnText(session, turn), source: turn.dia_id });
      if (result.action === 'created') {
        counts.created += 1;
        idToDia.set(result.memoryId, turn.dia_id);
      } else if (result.action === 'duplicate') {
        counts.duplicate += 1;
      } else {
        counts.failed += 1;
        counts.failedCodes[result.error] = (counts.failedCodes[result.error] ?? 0) + 1;
      }
    }
  }
  return { idToDia, counts };
}

/**
 * One conversation stored through the engine, one unit per turn, each
 * stamped with its session's date. Hits map to turns by memoryId; a hit
 * without one (a backend that returns plain line ranges) maps by the unit
 * whose lines contain it.
 */
export async function buildConversationMemory(
  rootDir: string,
  conversation: LocomoConversation,
): Promise<ConversationMemory> {
  const homeDir = join(rootDir, '.bench-home');
  await mkdir(homeDir, { recursive: true });
  let clock = FALLBACK_DATE;
  const openOptions = { homeDir, overrides: { timezone: 'UTC' }, now: () => clock };
  const cairn = await openCairn(rootDir, { ...openOptions, env: {} });
  await cairn.init();
  const built = await timed(() => addTurns(cairn, conversation, (date) => (clock = date)));
  const { idToDia, counts } = built.value;
  const units = (await cairn.list()).filter((record) => record.kind === 'UNIT');
  const mapping: MappingCounts = { byMemoryId: 0, byLineRange: 0, unmapped: 0 };
  const diaIdAtLine = (path: string, line: number) => {
    const unit = units.find((u) => u.path === path && u.startLine <= line && line <= u.endLine);
    return unit ? idToDia.get(unit.memoryId) : undefined;
  };
  const diaIdOf = (result: MemorySearchResult) => {
    const byId = result.memoryId ? idToDia.get(result.memoryId) : undefined;
    if (byId) {
      mapping.byMemoryId += 1;
      return byId;
    }
    const byLines = diaIdAtLine(result.path, result.startLine);
    if (byLines) mapping.byLineRange += 1;
    else mapping.unmapped += 1;
    return byLines;
  };
  return { cairn, openOptions, counts, addMs: built.ms, mapping, diaIdOf, diaIdAtLine };
}
