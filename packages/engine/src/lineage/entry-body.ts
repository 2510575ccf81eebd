import { createRequire } from 'node:module';

/** zlib is loaded on the first long entry: a hook that only recalls never pays for it. */
let zlib: typeof import('node:zlib') | undefined;
const lazyZlib = () =>
  (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));

/**
 * Tier 3 keeps every entry whole (lossless), but a year of tool output is
 * mostly logs and file reads that are read back rarely. An entry longer
 * than COMPRESS_ABOVE characters is stored as a raw DEFLATE stream
 * (RFC 1951, of its UTF-8) in `body`, with a short preview (its head) in
 * `text`; shorter entries are stored as they are. The full-text index
 * holds every entry's full text (the repository feeds it), and reads
 * return the full text: nothing is ever dropped.
 */
export const COMPRESS_ABOVE = 1024;
const PREVIEW_CHARS = 160;

export interface StoredEntryText {
  /** The text itself, or its preview when `body` is set. */
  text: string;
  /** The full text, compressed; null when `text` is the full text. */
  body: Uint8Array | null;
}

export function storeEntryText(full: string): StoredEntryText {
  if (full.length <= COMPRESS_ABOVE) return { text: full, body: null };
  return {
    text: `${full.slice(0, pairSafe(full, PREVIEW_CHARS))}…`,
    body: lazyZlib().deflateRawSync(Buffer.from(full, 'utf8'), { level: 6 }),
  };
}

/** The full text of a stored entry. */
export function readEntryText(row: { text: string; body?: Uint8Array | null }): string {
  if (!row.body) return row.text;
  return lazyZlib().inflateRawSync(row.body).toString('utf8');
}

/** `at`, moved one back when it would split a surrogate pair. */
function pairSafe(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}
