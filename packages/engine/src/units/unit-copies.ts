import {
  idMatchMessage,
  isWholeId,
  type LocatedUnit,
  MEMORY_WORKSPACE_PATH,
  matchIdPrefix,
  type ParsedDocument,
  UNIT_ID_KIND,
} from '@cairn/core';
import { type FailedResult, failed } from './unit-results';

/**
 * One unit id in more than one place: a git merge that kept both sides, a
 * daily file copied by hand. A change to "the" unit would change one copy
 * and leave the other injected, so replace, remove and review refuse with
 * `conflict` naming every place, and `cairn remove <id> --at <place>`
 * removes one copy (docs/UNITS.md "The same id in two places").
 */

/** Every copy of a unit, in workspace order (files by path, then by line). */
export function findUnitCopies(
  documents: readonly ParsedDocument[],
  memoryId: string,
): LocatedUnit[] {
  const copies: LocatedUnit[] = [];
  for (const document of documents) {
    for (const unit of document.units) if (unit.memoryId === memoryId) copies.push(unit);
  }
  return copies;
}

/**
 * The whole id a unit id or a unique start of one names (`UNIT:6c2f615d`,
 * `6c2f615d`): a start that several units share is a `conflict` naming
 * them, one that none has is `not_found`. A whole id is kept as it is.
 */
export function resolveUnitId(
  documents: readonly ParsedDocument[],
  input: string,
): string | FailedResult {
  if (isWholeId(input, UNIT_ID_KIND)) return input;
  const ids = documents.flatMap((document) => document.units.map((unit) => unit.memoryId));
  const match = matchIdPrefix(input, UNIT_ID_KIND, ids);
  if (match.ok) return match.id;
  const { message, hint } = idMatchMessage(input, UNIT_ID_KIND, match);
  const code =
    match.reason === 'ambiguous'
      ? 'conflict'
      : match.reason === 'invalid'
        ? 'invalid_id'
        : 'not_found';
  return failed(code, message, hint);
}

/** `2026-04-22.md:12`: where a copy starts, as `--at` takes it. */
export const placeOf = (unit: LocatedUnit) => `${unit.path}:${unit.startLine}`;

/** The command that removes one copy, for a hint or a doctor finding. */
export const removeCopyCommand = (unit: LocatedUnit) =>
  `cairn remove ${unit.memoryId} --at ${placeOf(unit)}`;

/** The refusal of a change to a unit with several copies. */
export function copiesConflict(memoryId: string, copies: readonly LocatedUnit[]): FailedResult {
  const places = copies.map(placeOf).join(', ');
  return failed(
    'conflict',
    `${memoryId} is in ${copies.length} places (${places}); changing one would leave the others injected`,
    `keep one copy: remove each other one with \`${removeCopyCommand(copies[copies.length - 1]!)}\` (or delete it from the file), then try again`,
  );
}

/** `path:line` or `path` (workspace-relative, `.cairn/memory/` allowed in front). */
function parsePlace(at: string): { path: string; line?: number } {
  const match = /^(.*?)(?::(\d+))?$/.exec(at.trim())!;
  const prefix = `${MEMORY_WORKSPACE_PATH}/`;
  const path = match[1]!.startsWith(prefix) ? match[1]!.slice(prefix.length) : match[1]!;
  return match[2] ? { path, line: Number(match[2]) } : { path };
}

/**
 * The copy `at` names: the one in that file (spanning that line, when a
 * line is given). A place that holds no copy, or a file that holds
 * several when no line is given, is refused naming every place.
 */
export function copyAt(
  memoryId: string,
  copies: readonly LocatedUnit[],
  at: string,
): LocatedUnit | FailedResult {
  const place = parsePlace(at);
  const matching = copies.filter(
    (unit) =>
      unit.path === place.path &&
      (place.line === undefined || (unit.startLine <= place.line && place.line <= unit.endLine)),
  );
  if (matching.length === 1) return matching[0]!;
  const places = copies.map(placeOf).join(', ') || 'none';
  return matching.length === 0
    ? failed(
        'not_found',
        `${memoryId} has no copy at ${at}`,
        `its copies are at ${places}; pass one of those to --at`,
      )
    : failed(
        'conflict',
        `${memoryId} has ${matching.length} copies in ${place.path}`,
        `name the copy by its line: one of ${places}`,
      );
}
