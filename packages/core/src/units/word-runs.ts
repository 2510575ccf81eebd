/** Only ASCII: then `\p{L}` is `[A-Za-z]` and `\p{N}` is `[0-9]`. */
const NON_ASCII = /[^\0-\x7f]/;

/**
 * The runs of letters and digits in `text` (`/[\p{L}\p{N}]+/gu`), in order.
 * ASCII text is cut with `[A-Za-z0-9]+`, the same runs: compiling the
 * Unicode classes costs a process about a millisecond, and most prompts,
 * queries and file names are ASCII.
 */
export function wordRuns(text: string): string[] {
  const runs = NON_ASCII.test(text) ? text.match(/[\p{L}\p{N}]+/gu) : text.match(/[A-Za-z0-9]+/g);
  return runs ?? [];
}
