import { textMemo } from '../text-memo';
import {
  ASSIGNMENT,
  isPlaceholder,
  isSecretName,
  PRIVATE_KEY_BEGIN,
  PRIVATE_KEY_END,
  SECRET_PATTERNS,
} from './secret-patterns';

export interface RedactionResult {
  text: string;
  /** How many secrets of each kind were replaced, sorted by kind. */
  found: { kind: string; count: number }[];
  redacted: boolean;
}

/** What replaces a secret: says what it was, never any of it. */
export const redactionMark = (kind: string) => `[REDACTED:${kind}]`;

type Counts = Map<string, number>;

const sortedCounts = (counts: Counts) =>
  [...counts].map(([kind, count]) => ({ kind, count })).sort((a, b) => (a.kind < b.kind ? -1 : 1));

const bump = (counts: Counts, kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);

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

function redactPatterns(text: string, counts: Counts): string {
  let out = text;
  for (const { kind, pattern, group } of SECRET_PATTERNS) {
    out = out.replace(pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      bump(counts, kind);
      if (group === undefined) return redactionMark(kind);
      const secret = args[group] as string;
      const before = group > 1 ? (args.slice(1, group) as string[]).join('') : '';
      return `${before}${redactionMark(kind)}${match.slice(before.length + secret.length)}`;
    });
  }
  return out;
}

/**
 * A kept assignment's value is scanned again (`note: DB_PASSWORD=...`,
 * `env: TOKEN=...`): the next match starts where the value did. A value is
 * at most 500 characters, so each character is read a bounded number of
 * times and the pass stays linear.
 */
function redactAssignments(text: string, counts: Counts): string {
  const pattern = new RegExp(ASSIGNMENT.source, 'g');
  let out = '';
  let at = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [whole, , name = '', value = ''] = match;
    const quoted = value.startsWith('"') || value.startsWith("'");
    const bare = quoted ? value.slice(1, -1) : value;
    const valueAt = match.index + whole.length - value.length;
    if (!isSecretName(name) || isPlaceholder(bare)) {
      pattern.lastIndex = quoted ? valueAt + 1 : valueAt;
      continue;
    }
    bump(counts, 'assignment');
    const mark = redactionMark('assignment');
    out += text.slice(at, valueAt) + (quoted ? `${value[0]}${mark}${value[0]}` : mark);
    at = match.index + whole.length;
  }
  return out + text.slice(at);
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
  out = redactPatterns(out, counts);
  return redactAssignments(out, counts);
}

/**
 * The one redaction pass over text that leaves Cairn's hands: everything
 * injected into an agent, sent to a model (summaries, embeddings) or to a
 * remote store, and lineage text handed to an agent. Private key blocks,
 * known credential formats (cloud, GitHub, model providers, Slack,
 * Stripe, JWTs, bearer tokens, passwords in connection strings), then
 * `NAME=value` assignments whose name says secret, token, password,
 * credential, auth or key. Hashes, UUIDs and commit ids are left alone.
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
