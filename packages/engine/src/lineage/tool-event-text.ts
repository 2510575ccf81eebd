/**
 * The transcript text of a tool event: its input, then `→` and its output,
 * each as the harness gave it (a string as is, anything else as JSON).
 * Nothing is cut: Tier 3 is lossless, and the lineage stores long entries
 * compressed with an excerpt for search (lineage/transcript-repository.ts).
 */
export function toolEventText(input: unknown, output: unknown): string {
  return [asText(input), asText(output)].filter(Boolean).join(TOOL_OUTPUT_SEPARATOR);
}

/** What separates a tool event's input from its output in its transcript text. */
export const TOOL_OUTPUT_SEPARATOR = '\n→ ';

/**
 * The input part of a tool event's transcript text: everything before the
 * first separator. JSON never holds a raw newline; a string input that
 * holds the separator is cut early, so no part of the output is ever in it.
 */
export function toolInputPart(text: string): string {
  const split = text.indexOf(TOOL_OUTPUT_SEPARATOR);
  return split === -1 ? text : text.slice(0, split);
}

function asText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}
