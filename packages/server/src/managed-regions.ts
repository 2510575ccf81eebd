import {
  CairnError,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  parseMemoryDocument,
  THREAD_HEAD_END_MARKER,
  THREAD_HEAD_START_MARKER,
} from '@cairn/core';

/** Each region between a start and an end marker, markers included, in order. */
function markedRegions(text: string, start: string, end: string): string[] {
  const found: string[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(start, from);
    if (at === -1) return found;
    const stop = text.indexOf(end, at);
    if (stop === -1) return [...found, text.slice(at)];
    found.push(text.slice(at, stop + end.length));
    from = stop + end.length;
  }
}

/**
 * The regions Cairn manages in a workspace file, exactly as written: each
 * unit's lines (markers included), the head region of MEMORY.md and a
 * thread head's region. Everything else is the user's text.
 */
export function managedRegions(text: string, path: string): string[] {
  const lines = text.split('\n');
  const units = parseMemoryDocument(text, path).units.map((unit) =>
    lines.slice(unit.startLine - 1, unit.endLine).join('\n'),
  );
  return [
    ...units,
    ...markedRegions(text, HEAD_START_MARKER, HEAD_END_MARKER),
    ...markedRegions(text, THREAD_HEAD_START_MARKER, THREAD_HEAD_END_MARKER),
  ];
}

/**
 * Refuses an edit of the user's text that changes, adds, drops or reorders
 * a managed region: units are edited by id (Units view), the head by the
 * runtime. Throws INVALID_INPUT naming what changed; nothing is written.
 */
export function checkUserEdit(path: string, before: string, after: string): void {
  const old = managedRegions(before, path);
  const next = managedRegions(after, path);
  const same = old.length === next.length && old.every((region, i) => region === next[i]);
  if (
    same &&
    parseMemoryDocument(after, path).issues.length <=
      parseMemoryDocument(before, path).issues.length
  ) {
    return;
  }
  throw new CairnError('INVALID_INPUT', `The edit of ${path} changes a region Cairn manages`, {
    hint: 'edit only the text outside the cairn markers; change units by id in the Units view. Nothing was written',
    details: { path, before: old.length, after: next.length },
  });
}
