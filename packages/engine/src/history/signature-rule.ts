import { scrubVolatile } from './scrub-volatile';

/** What a rule reads: the error text split into lines (colour codes gone, long lines cut). */
export interface RuleInput {
  lines: readonly string[];
  /** The command family (`pnpm install`), when the caller gave the command. */
  commandFamily: string | undefined;
  /** The one test file the command named (`npx ava --tap total.test.js`), for output that names none. */
  commandFile?: string | undefined;
}

/**
 * One ecosystem's way of finding the part of an error that says what
 * failed. `key` returns the raw key parts (scrubbed afterwards, so a rule
 * keeps words and codes and need not care about paths or numbers), or
 * undefined when the text is not this ecosystem's error.
 */
export interface SignatureRule {
  family: string;
  key(input: RuleInput): string[] | undefined;
}

/**
 * A key part its rule has scrubbed already, in its own way (a failed
 * test's id keeps the numbers of its name): errorSignature takes it as it
 * is. The mark is a NUL, which errorSignature removes from the text it
 * reads, so no output can set it.
 */
const FINAL = '\u0000';

export function finalPart(text: string): string {
  return `${FINAL}${text}`;
}

/** A key part as it goes into the key: a final part without its mark, any other scrubbed. */
export function keyPartText(part: string): string {
  return part.startsWith(FINAL) ? part.slice(FINAL.length) : scrubVolatile(part);
}

/** The first capture of `pattern` (group 1, else the whole match) on the first line that matches. */
export function firstCapture(lines: readonly string[], pattern: RegExp): string | undefined {
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match) return match[1] ?? match[0];
  }
  return undefined;
}

/** The same on the last line that matches (a traceback ends with its exception). */
export function lastCapture(lines: readonly string[], pattern: RegExp): string | undefined {
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const match = pattern.exec(lines[index] ?? '');
    if (match) return match[1] ?? match[0];
  }
  return undefined;
}

/**
 * Every capture of `pattern` (groups joined by a space), scrubbed, each once, sorted,
 * at most `max`: the same set of errors gives the same key whatever order
 * the tool printed them in.
 */
export function allCaptures(lines: readonly string[], pattern: RegExp, max = 3): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    const match = pattern.exec(line);
    if (!match) continue;
    const groups = match.slice(1).filter((group) => group !== undefined);
    found.add(scrubVolatile(groups.length > 0 ? groups.join(' ') : match[0]));
  }
  return [...found].sort().slice(0, max);
}

export function hasLine(lines: readonly string[], pattern: RegExp): boolean {
  return lines.some((line) => pattern.test(line));
}

/** Non-empty parts, or undefined when none is left (the rule does not apply). */
export function keyOf(...parts: (string | undefined | string[])[]): string[] | undefined {
  const flat = parts.flat().filter((part): part is string => Boolean(part?.trim()));
  return flat.length > 0 ? flat : undefined;
}
