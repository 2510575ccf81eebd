import { textMemo } from '../text-memo';
import { redactNamedValues } from './named-values';
import {
  acceptsBody,
  bodyPattern,
  type PrefixFinder,
  prefixFinders,
  rowsOf,
} from './provider-tokens';
import { bump, type Counts, hinted, redactionMark, type SecretPattern } from './secret-pattern';
import { PRIVATE_KEY_BEGIN, PRIVATE_KEY_END, SECRET_PATTERNS } from './secret-patterns';

export { redactionMark } from './secret-pattern';

export interface RedactionResult {
  text: string;
  /** How many secrets of each kind were replaced, sorted by kind. */
  found: { kind: string; count: number }[];
  redacted: boolean;
}

const sortedCounts = (counts: Counts) =>
  [...counts].map(([kind, count]) => ({ kind, count })).sort((a, b) => (a.kind < b.kind ? -1 : 1));

/**
 * Private key blocks, BEGIN to END. Scanned with indexes rather than one
 * lazy regex: once no END follows a BEGIN, none follows any later BEGIN
 * either, so the rest of the text goes (a truncated key is still a key).
 */
function redactPrivateKeys(text: string, counts: Counts): string {
  const begin = new RegExp(PRIVATE_KEY_BEGIN.source, 'g');
  const end = new RegExp(PRIVATE_KEY_END.source, 'g');
  let out = '';
  let at = 0;
  for (let match = begin.exec(text); match; match = begin.exec(text)) {
    if (match.index < at) continue;
    end.lastIndex = match.index + match[0].length;
    const closing = end.exec(text);
    out += text.slice(at, match.index) + redactionMark('private-key');
    bump(counts, 'private-key');
    if (!closing) return out;
    at = closing.index + closing[0].length;
    begin.lastIndex = at;
  }
  return out + text.slice(at);
}

/**
 * Issuer tokens: each finder locates prefixes of the table, then the body
 * of each row of that prefix is read where the prefix ends.
 */
function redactWithFinder(text: string, finder: PrefixFinder, counts: Counts): string {
  const scan = finder.pattern;
  scan.lastIndex = 0;
  let out = '';
  let at = 0;
  for (let match = scan.exec(text); match; match = scan.exec(text)) {
    const found = finder.found(match);
    const bodyAt = found.at + found.prefix.length;
    for (const row of rowsOf(found.prefix)) {
      const sticky = bodyPattern(row);
      sticky.lastIndex = bodyAt;
      const body = sticky.exec(text)?.[0];
      if (body === undefined || !acceptsBody(row, body)) continue;
      bump(counts, row.kind);
      out += text.slice(at, found.at) + redactionMark(row.kind);
      at = bodyAt + body.length;
      scan.lastIndex = at;
      break;
    }
  }
  return out + text.slice(at);
}

function redactPrefixedTokens(text: string, counts: Counts): string {
  let out = text;
  for (const finder of prefixFinders()) {
    // A finder of one literal prefix runs only when the text holds it.
    if (finder.literal && !out.includes(finder.literal)) continue;
    out = redactWithFinder(out, finder, counts);
  }
  return out;
}

/** One pattern over the text; the secret is its group (or the whole match), extended left when the pattern says so. */
function redactPattern(text: string, p: SecretPattern, counts: Counts): string {
  const scan = p.pattern;
  scan.lastIndex = 0;
  let out = '';
  let at = 0;
  for (let match = scan.exec(text); match; match = scan.exec(text)) {
    const secret = p.group === undefined ? match[0] : match[p.group];
    const end = match.index + match[0].length;
    // The secret group ends the match (SecretPattern): what comes before it stays.
    const kept =
      secret === undefined ||
      !match[0].endsWith(secret) ||
      (p.accept !== undefined && !p.accept(secret, match[0], text, match.index));
    if (kept) {
      // A kept match may hold the start of another (a URL inside a path): look again one character on.
      scan.lastIndex = match.index + 1;
      continue;
    }
    let start = end - secret.length;
    while (p.extendLeft && start > at && p.extendLeft.test(text[start - 1]!)) start--;
    bump(counts, p.kind);
    out += text.slice(at, start) + redactionMark(p.kind);
    at = end;
  }
  return out + text.slice(at);
}

function redactPatterns(text: string, counts: Counts): string {
  let out = text;
  let lower: string | undefined;
  const lowered = () => {
    lower ??= out.toLowerCase();
    return lower;
  };
  for (const pattern of SECRET_PATTERNS) {
    if (!hinted(out, lowered, pattern)) continue;
    const next = redactPattern(out, pattern, counts);
    if (next !== out) lower = undefined;
    out = next;
  }
  return out;
}

/**
 * Invisible characters (zero-width, soft hyphen, bidi controls, BOM) between
 * two characters a token is made of: `gh\u200Bp_...` must not slip past the
 * scan and then be joined again by a renderer that drops invisible text.
 * Only a run preceded by a token character can match, so the scan is linear.
 * `:` is not a token character: escapeMarkers' `cairn\u200B:` stays intact.
 */
const SPLIT_TOKEN =
  /(?<=[A-Za-z0-9_=+/.-])[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]+(?=[A-Za-z0-9_=+/.-])/g;

function scan(text: string, counts: Counts): string {
  let out = redactPrivateKeys(text, counts);
  out = redactPrefixedTokens(out, counts);
  out = redactPatterns(out, counts);
  return redactNamedValues(out, counts);
}

/**
 * The one redaction pass over text that leaves Cairn's hands: everything
 * injected into an agent, sent to a model (summaries, embeddings) or to a
 * remote store, and lineage text handed to an agent. The classes are
 * listed in secret-patterns.ts: private keys, issuer prefixes and formats,
 * places (URL userinfo, auth headers, `.netrc`/`.pgpass`, curl and mysql
 * arguments), then values named secret in any form (`NAME=value`,
 * `--password value`, `<password>`…). Hashes, UUIDs and commit ids are left alone.
 * Text without a secret comes back unchanged (the same string). Linear in
 * the text's length.
 */
export function redactSecrets(text: string): RedactionResult {
  const known = remembered.get(text);
  if (known) return known;
  const counts: Counts = new Map();
  const joined = text.replace(SPLIT_TOKEN, '');
  const out = scan(joined, counts);
  const result: RedactionResult =
    counts.size === 0
      ? { text, found: [], redacted: false }
      : { text: out, found: sortedCounts(counts), redacted: true };
  remembered.set(text, result);
  return result;
}

/**
 * Results for texts redacted lately: a pack's items are redacted when the
 * pack is composed and again each time it is rendered (every renderer
 * redacts what it shows), a hook renders a pack a few times while fitting
 * it to its budget, and a long-lived process (the MCP server, an in-process
 * plugin) shows the same heads and units again and again. Oldest out
 * first, about 1M characters of keys at most; results are shared, not
 * copied, so callers treat them as read-only.
 */
const remembered = textMemo<RedactionResult>(1_000_000);

/** The kinds of secret in a text, sorted; empty when none (what the lineage marks). */
export function secretKinds(text: string): string[] {
  return redactSecrets(text).found.map((f) => f.kind);
}

/**
 * Redacts every string inside a JSON-like value (a request payload): the
 * same shape comes back, with `found` counting the secrets of all strings
 * by kind. Used where a whole request leaves the machine.
 */
export function redactStrings<T>(value: T): { value: T; found: RedactionResult['found'] } {
  const counts: Counts = new Map();
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const result = redactSecrets(node);
      for (const { kind, count } of result.found) counts.set(kind, (counts.get(kind) ?? 0) + count);
      return result.text;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner)]));
    }
    return node;
  };
  const out = walk(value) as T;
  const found = sortedCounts(counts);
  return { value: out, found };
}
