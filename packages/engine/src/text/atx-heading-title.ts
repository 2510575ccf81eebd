/**
 * The title of an ATX heading's text (what follows its `#`s): trimmed, and
 * without a closing run of `#` after white space. Linear: no regex
 * backtracks over the line.
 */
export function atxHeadingTitle(rest: string): string {
  const title = rest.trim();
  let end = title.length;
  while (end > 0 && title[end - 1] === '#') end -= 1;
  if (end === 0) return '';
  if (end < title.length && (title[end - 1] === ' ' || title[end - 1] === '\t')) {
    return title.slice(0, end).trimEnd();
  }
  return title;
}
