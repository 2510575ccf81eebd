/** Values kept for texts seen lately, bounded by the characters of their keys. */
export interface TextMemo<V> {
  get(text: string): V | undefined;
  /** Keeps `value` for `text`, unless the text alone is too long to be worth keeping. */
  set(text: string, value: V): void;
}

/**
 * A memo for work done on the same texts again and again in a long-lived
 * process (redaction, token counts): oldest out first, about `maxChars`
 * characters of keys at most, and no text longer than `maxChars / 64`.
 * Values are shared, not copied, so callers treat them as read-only.
 */
export function textMemo<V>(maxChars: number): TextMemo<V> {
  const kept = new Map<string, V>();
  let keptChars = 0;
  return {
    get: (text) => kept.get(text),
    set(text, value) {
      if (text.length > maxChars / 64) return;
      if (!kept.has(text)) keptChars += text.length;
      kept.set(text, value);
      for (const oldest of kept.keys()) {
        if (keptChars <= maxChars) break;
        kept.delete(oldest);
        keptChars -= oldest.length;
      }
    },
  };
}
