/**
 * One credential format: a bounded regex, and which part of a match is the
 * secret. A regex that starts with a literal is scanned quickly (V8 skips
 * to the literal's occurrences); one that starts with a character class or
 * a look-behind is tried at every position, which costs a hundred times
 * more on a 20 KB text. So patterns start with their rarest literal and
 * check what comes before it with a look-behind placed after it.
 */
export interface SecretPattern {
  kind: string;
  /** Global; every quantifier bounded. */
  pattern: RegExp;
  /** The capture group holding the secret, which ends the match (what comes before it is kept). The whole match when absent. */
  group?: number;
  /**
   * Strings one of which every match holds (lower case when `caseless`): a
   * text holding none of them is not scanned at all. On a cold process a
   * scan that is skipped is also a regex never compiled.
   */
  hint?: readonly string[];
  /** The hints are compared with the text in lower case. */
  caseless?: boolean;
  /**
   * The secret also takes the characters of this class right before the
   * match: a pattern can then start at its rarest literal (`Q~`, `-us1`)
   * and leave the variable part in front of it to this class.
   */
  extendLeft?: RegExp;
  /** A last check of a candidate (the secret, the whole match, the text and where the match starts): false keeps it. */
  accept?: (secret: string, match: string, text: string, at: number) => boolean;
}

/** A mark an earlier pass left (`[REDACTED:kind]`): never redacted again. */
export const isMark = (text: string) => text.startsWith('[REDACTED');

/** What replaces a secret: says what it was, never any of it. */
export const redactionMark = (kind: string) => `[REDACTED:${kind}]`;

/** How many secrets of each kind a pass replaced. */
export type Counts = Map<string, number>;

export const bump = (counts: Counts, kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);

/**
 * A look-behind source: the match starts a run, i.e. no character of
 * `chars` comes before it. The letter of an escape in escaped text (`\n`,
 * `\t` in JSON) does not count, and nothing starts right after a
 * backslash, so `"…\nghp_…"` is a token at the start of a line.
 */
export const runStart = (chars = 'A-Za-z0-9_') => `(?<!\\\\)(?<!(?<!\\\\)[${chars}])`;

/** `pattern` pinned to the start of a run of `chars` (see runStart). */
export const pinned = (pattern: RegExp, chars?: string) =>
  new RegExp(runStart(chars) + pattern.source, pattern.flags);

/** Whether a text may hold a match of a pattern with these hints (SecretPattern.hint). */
export function hinted(
  text: string,
  lower: () => string,
  { hint, caseless }: { hint?: readonly string[]; caseless?: boolean },
): boolean {
  if (!hint) return true;
  const haystack = caseless ? lower() : text;
  return hint.some((needle) => haystack.includes(needle));
}
