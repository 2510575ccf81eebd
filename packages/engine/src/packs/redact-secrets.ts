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

function redactAssignments(text: string, counts: Counts): string {
  return text.replace(ASSIGNMENT, (match, _quote: string, name: string, value: string) => {
    const quoted = value.startsWith('"') || value.startsWith("'");
    const bare = quoted ? value.slice(1, -1) : value;
    if (!isSecretName(name) || isPlaceholder(bare)) return match;
    bump(counts, 'assignment');
    const mark = redactionMark('assignment');
    return `${match.slice(0, match.length - value.length)}${quoted ? `${value[0]}${mark}${value[0]}` : mark}`;
  });
}

/**
 * One redaction pass over text on its way into a pack (and, next, into
 * summaries, embeddings and exports): private key blocks, known credential
 * formats (cloud, GitHub, model providers, Slack, JWTs, bearer tokens,
 * passwords in connection strings), then `NAME=value` assignments whose
 * name says secret, token, password, credential, auth or key. Hashes,
 * UUIDs and commit ids are left alone. Linear in the text's length.
 */
export function redactSecrets(text: string): RedactionResult {
  const counts: Counts = new Map();
  let out = redactPrivateKeys(text, counts);
  out = redactPatterns(out, counts);
  out = redactAssignments(out, counts);
  const found = [...counts]
    .map(([kind, count]) => ({ kind, count }))
    .sort((a, b) => (a.kind < b.kind ? -1 : 1));
  return { text: out, found, redacted: found.length > 0 };
}
