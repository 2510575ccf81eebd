import {
  getDefaultDreamsScaffold,
  getDefaultMemoryScaffold,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  MEMORY_DREAMS_FILENAME,
  MEMORY_LONG_TERM_FILENAME,
  type MemoryChunk,
  THREAD_HEAD_END_MARKER,
  THREAD_HEAD_START_MARKER,
} from '@cairn/core';

/*
 * Views are what Cairn renders over units and lineage: the managed region
 * of MEMORY.md, the managed region of a thread head, and the text of its
 * own templates (the scaffolds of MEMORY.md and DREAMS.md). Search ranks
 * them below the sources they render; the user's own text in the same
 * files is not a view and ranks as any note.
 */

const REGIONS = [
  { start: HEAD_START_MARKER, end: HEAD_END_MARKER },
  { start: THREAD_HEAD_START_MARKER, end: THREAD_HEAD_END_MARKER },
];

let templateLines: Map<string, Set<string>> | undefined;

/** The non-blank, non-marker lines of each scaffold, by the file they scaffold. */
function scaffoldLines(path: string): Set<string> | undefined {
  templateLines ??= new Map(
    [
      [MEMORY_LONG_TERM_FILENAME, getDefaultMemoryScaffold()],
      [MEMORY_DREAMS_FILENAME, getDefaultDreamsScaffold()],
    ].map(([file, text]) => [
      file!,
      new Set(
        text!
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '' && !line.startsWith('<!--')),
      ),
    ]),
  );
  return templateLines.get(path);
}

/** 1-based numbers of the lines inside a managed region (its marker lines included). */
function regionLines(lines: readonly string[]): Set<number> {
  const inside = new Set<number>();
  let open: string | undefined;
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    const region = REGIONS.find((r) => trimmed === r.start);
    if (!open && region) open = region.end;
    if (open) inside.add(index + 1);
    if (open && trimmed === open) open = undefined;
  });
  return inside;
}

/**
 * For each chunk of one file (`text` is the whole file), whether it is a
 * view: every non-blank line of its range is inside a managed region or a
 * line of the file's scaffold. Files with neither give all false, cheaply.
 */
export function renderedViews(
  text: string,
  path: string,
  chunks: readonly MemoryChunk[],
): boolean[] {
  const scaffold = scaffoldLines(path);
  const managed =
    text.includes('<!-- cairn:head:start') || text.includes('<!-- cairn:thread-head:');
  if (!scaffold && !managed) return chunks.map(() => false);
  const lines = text.split('\n');
  const inside = managed ? regionLines(lines) : new Set<number>();
  return chunks.map((chunk) => {
    if (chunk.kind === 'UNIT') return false;
    let rendered = false;
    for (let number = chunk.startLine; number <= chunk.endLine; number += 1) {
      const line = lines[number - 1]?.trim() ?? '';
      if (line === '') continue;
      if (!inside.has(number) && !scaffold?.has(line)) return false;
      rendered = true;
    }
    return rendered;
  });
}
