/** Line edits of a daily file's text: the user's bytes outside the unit's lines stay as they were. */

/** Appends `block` to a daily file's text, keeping one blank line between blocks. */
export function appendBlock(current: string | undefined, block: string, date: string): string {
  if (current === undefined || current.trim() === '') return `# ${date}\n\n${block}`;
  const base = current.endsWith('\n') ? current : `${current}\n`;
  return `${base}\n${block}`;
}

/**
 * Replaces lines `start..end` (1-based, inclusive) of `text` with
 * `replacement` lines; every other line, byte for byte. In a file with
 * CRLF line ends the new lines get CRLF too.
 */
export function spliceLines(
  text: string,
  start: number,
  end: number,
  replacement: string[],
): string {
  const lines = text.split('\n');
  const crlf = lines[start - 1]?.endsWith('\r') === true;
  const added = crlf ? replacement.map((line) => `${line}\r`) : replacement;
  lines.splice(start - 1, end - start + 1, ...added);
  return lines.join('\n');
}

/** After removing a unit, also drop its `----` separator and the blank lines around it. */
export function removalEnd(lines: string[], end: number): number {
  let last = end;
  while (lines[last]?.trim() === '') last += 1;
  if (lines[last]?.trim() === '----') {
    last += 1;
    if (lines[last]?.trim() === '') last += 1;
  }
  return last;
}
