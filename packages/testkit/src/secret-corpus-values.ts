/** The classes of secret the corpus is organised by (docs/SECURITY.md#redaction-classes). */
export type SecretClass =
  | 'private-key'
  | 'provider'
  | 'named-value'
  | 'flag'
  | 'http-auth'
  | 'connection-string'
  | 'credential-file';

export interface CorpusSecret {
  class: SecretClass;
  /** The kind `redactSecrets` reports for it. */
  kind: string;
  /** The secret itself: it must never appear in redacted text. */
  value: string;
  /** A line as a prompt, a tool output, a unit or a file would carry it. */
  line: string;
  /** What the entry is, when the kind alone does not say. */
  note?: string;
}

export const join = (...parts: string[]) => parts.join('');

const ALPHABETS = {
  b62: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  hex: '0123456789abcdef',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  lower: 'abcdefghijklmnopqrstuvwxyz0123456789',
} as const;

/** A seeded string hash, so each seed gives its own sequence. */
function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * `length` characters of `alphabet` that look generated, the same for the
 * same seed (mulberry32): fake secrets built at run time, never written in
 * the source.
 */
export function generated(seed: string, length: number, alphabet: keyof typeof ALPHABETS): string {
  const chars = ALPHABETS[alphabet];
  let state = seedOf(seed);
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out += chars[((t ^ (t >>> 14)) >>> 0) % chars.length];
  }
  return out;
}
