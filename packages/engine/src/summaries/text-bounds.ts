import { ITEM_MAX_CHARS, LIST_LIMIT } from './summary-types';

const ELLIPSIS = '…';

/** Cuts at `max` code units without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  const end = Math.max(0, max - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  const safeEnd = last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
  return `${text.slice(0, safeEnd).trimEnd()}${ELLIPSIS}`;
}

/** One line: whitespace collapsed, at most `max` characters (ending in "…" when cut). */
export function clip(text: string, max: number = ITEM_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : cut(flat, max);
}

/** A block of text with its line breaks kept, at most `max` characters. */
export function clipBlock(text: string, max: number): string {
  return text.length <= max ? text : cut(text, max);
}

/**
 * Dedupes case-insensitively (by `keyOf`), keeps the latest occurrence of
 * each item and the last `limit` items, in the order they last appeared.
 */
export function boundList(
  items: readonly string[],
  keyOf: (item: string) => string = (item) => item.toLowerCase(),
  limit: number = LIST_LIMIT,
): string[] {
  const latest = new Map<string, string>();
  // Walk back from the newest item and stop at `limit`: long transcripts stay cheap.
  for (let index = items.length - 1; index >= 0 && latest.size < limit; index -= 1) {
    const clipped = clip(items[index]!);
    if (!clipped) continue;
    const key = keyOf(clipped);
    if (!latest.has(key)) latest.set(key, clipped);
  }
  return [...latest.values()].reverse();
}

/** Dedupe key for paths: `./src/a.ts` and `src/A.ts` are the same entry. */
export function pathKey(path: string): string {
  return path.replace(/^\.\//, '').toLowerCase();
}
