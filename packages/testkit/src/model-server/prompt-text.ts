/**
 * Readers shared by the three wire formats: every API nests text as either a
 * string or a list of typed parts, and tool results nest one level deeper.
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Part types that carry model-visible text (Anthropic, Chat and Responses spellings). */
const TEXT_PART_TYPES = new Set(['text', 'input_text', 'output_text', 'summary_text']);

/**
 * The text of a message `content` (or tool result `output`): a string, or
 * the text parts of a list, recursing into nested `content` (Anthropic
 * tool_result blocks). Tool-call inputs are not prompt text and are skipped.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const pieces: string[] = [];
  for (const part of asArray(content)) {
    if (typeof part === 'string') {
      pieces.push(part);
    } else if (isObject(part)) {
      const type = asString(part.type);
      if ((type === undefined || TEXT_PART_TYPES.has(type)) && typeof part.text === 'string') {
        pieces.push(part.text);
      } else if (type === 'tool_result') {
        pieces.push(contentText(part.content));
      }
    }
  }
  return pieces.filter((piece) => piece.length > 0).join('\n');
}

/** Joins non-empty pieces with newlines. */
export function joinText(pieces: Iterable<string>): string {
  return [...pieces].filter((piece) => piece.length > 0).join('\n');
}
