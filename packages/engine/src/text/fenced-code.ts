/** Line breaks besides `\n` that a model or a renderer may take for one. */
const OTHER_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;

/** The text with every kind of line break written `\n`, as the escape splits lines. */
export const normalizeBreaks = (text: string) => text.replace(OTHER_BREAKS, '\n');

/**
 * One line as a Markdown code span: the fence is one backtick longer than
 * the longest run inside, so no backtick in the text can close it early
 * and let the rest read as prose. Nothing else is escaped.
 */
export function fencedCode(line: string): string {
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}
