/**
 * The transcript text of a tool event: its input, then `→` and its output,
 * each as the harness gave it (a string as is, anything else as JSON).
 * Nothing is cut: Tier 3 is lossless, and the lineage stores long entries
 * compressed with an excerpt for search (lineage/entry-body.ts).
 */
export function toolEventText(input: unknown, output: unknown): string {
  return [asText(input), asText(output)].filter(Boolean).join('\n→ ');
}

function asText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}
