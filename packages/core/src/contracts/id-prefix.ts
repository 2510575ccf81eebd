import { CairnError } from '../errors';

/**
 * Ids are long (`UNIT:` and a UUID); people type the start of one, as they
 * do with git commits. Every surface that takes an id (the CLI, the MCP
 * tools, the dashboard's API) reaches the engine, which resolves a unique
 * prefix to the whole id here, against the ids it holds: one that matches
 * nothing is NOT_FOUND, one that matches several is CONFLICT naming them.
 */

/** A kind of id that a prefix can stand for. */
export interface IdKind {
  /** What people call one: `unit`, `temporal node`, `fix pattern`. */
  label: string;
  /** The fixed start of every id of the kind: `UNIT:`, `node:`, `FIX-`. */
  tag: string;
  /** The shape of the rest: `0` stands for a lowercase hex digit, `-` for itself. */
  shape: string;
  /** The command that lists them, named in hints. */
  list: string;
}

const UUID_SHAPE = '00000000-0000-0000-0000-000000000000';

export const UNIT_ID_KIND: IdKind = {
  label: 'unit',
  tag: 'UNIT:',
  shape: UUID_SHAPE,
  list: '`cairn list` or `cairn search`',
};

export const NODE_ID_KIND: IdKind = {
  label: 'temporal node',
  tag: 'node:',
  shape: UUID_SHAPE,
  list: '`cairn history runs` or `cairn threads`',
};

export const FIX_PATTERN_ID_KIND: IdKind = {
  label: 'fix pattern',
  tag: 'FIX-',
  shape: '000000000000',
  list: '`cairn history patterns`',
};

export const PROPOSAL_ID_KIND: IdKind = {
  label: 'proposal',
  tag: 'P-',
  shape: '000000000000',
  list: '`cairn review`',
};

/** Characters a prefix needs after the tag: fewer would match too much to mean one id. */
export const MIN_ID_PREFIX_CHARS = 4;

/** How many candidates a CONFLICT names at most. */
const MAX_LISTED = 10;

/** True when `rest` is the start of the kind's shape (the whole of it when `whole`). */
function fitsShape(rest: string, shape: string, whole: boolean): boolean {
  if (rest.length > shape.length || (whole && rest.length !== shape.length)) return false;
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i]!;
    if (shape[i] === '-' ? char !== '-' : !/[0-9a-f]/.test(char)) return false;
  }
  return true;
}

/** True when `input` is a whole id of the kind. */
export function isWholeId(input: unknown, kind: IdKind): input is string {
  return (
    typeof input === 'string' &&
    input.startsWith(kind.tag) &&
    fitsShape(input.slice(kind.tag.length), kind.shape, true)
  );
}

/**
 * The prefix an input stands for, tag included and normalized
 * (`6c2f615d` and `unit:6C2F615D` are both `UNIT:6c2f615d`), or undefined
 * when it cannot be the start of an id of the kind.
 */
export function idPrefixOf(input: unknown, kind: IdKind): string | undefined {
  if (typeof input !== 'string') return undefined;
  const trimmed = input.trim();
  const tagged = trimmed.toLowerCase().startsWith(kind.tag.toLowerCase());
  const rest = (tagged ? trimmed.slice(kind.tag.length) : trimmed).toLowerCase();
  if (rest.length < MIN_ID_PREFIX_CHARS || !fitsShape(rest, kind.shape, false)) return undefined;
  return `${kind.tag}${rest}`;
}

/** What a prefix matched: one whole id, or why not. */
export type IdMatch =
  | { ok: true; id: string }
  | { ok: false; reason: 'invalid' | 'not_found' | 'ambiguous'; candidates: string[] };

/**
 * Matches an input against the ids that exist: a whole id is returned as
 * it is (whether it exists is the caller's to say), a prefix resolves when
 * exactly one candidate starts with it.
 */
export function matchIdPrefix(input: string, kind: IdKind, candidates: Iterable<string>): IdMatch {
  if (isWholeId(input, kind)) return { ok: true, id: input };
  const prefix = idPrefixOf(input, kind);
  if (!prefix) return { ok: false, reason: 'invalid', candidates: [] };
  const found = new Set<string>();
  for (const candidate of candidates) if (candidate.startsWith(prefix)) found.add(candidate);
  const matches = [...found].sort();
  if (matches.length === 1) return { ok: true, id: matches[0]! };
  return { ok: false, reason: matches.length ? 'ambiguous' : 'not_found', candidates: matches };
}

/** A one-line description of a failed match, and what to do. */
export function idMatchMessage(
  input: string,
  kind: IdKind,
  match: Extract<IdMatch, { ok: false }>,
): { message: string; hint: string } {
  const shown = JSON.stringify(String(input).slice(0, 80));
  if (match.reason === 'invalid') {
    return {
      message: `${shown} is not a ${kind.label} id`,
      hint: `give the whole id or its first ${MIN_ID_PREFIX_CHARS}+ characters (${kind.tag}…); ${kind.list} lists them`,
    };
  }
  if (match.reason === 'not_found') {
    return {
      message: `No ${kind.label} id starts with ${shown}`,
      hint: `${kind.list} lists them`,
    };
  }
  const listed = match.candidates.slice(0, MAX_LISTED).join(', ');
  const more = match.candidates.length > MAX_LISTED ? ', …' : '';
  return {
    message: `${shown} starts ${match.candidates.length} ${kind.label} ids: ${listed}${more}`,
    hint: 'give more characters of the one you mean',
  };
}

/**
 * The whole id an input names, or a typed error that changes nothing:
 * INVALID_INPUT (not an id of the kind), NOT_FOUND (no id starts with it),
 * CONFLICT (several do: `details.candidates` lists them).
 */
export function resolveIdPrefix(input: string, kind: IdKind, candidates: Iterable<string>): string {
  const match = matchIdPrefix(input, kind, candidates);
  if (match.ok) return match.id;
  const { message, hint } = idMatchMessage(input, kind, match);
  const code =
    match.reason === 'invalid'
      ? 'INVALID_INPUT'
      : match.reason === 'ambiguous'
        ? 'CONFLICT'
        : 'NOT_FOUND';
  throw new CairnError(code, message, {
    hint: `${hint}; nothing was changed`,
    details: {
      id: String(input).slice(0, 200),
      kind: kind.label,
      candidates: match.candidates.slice(0, MAX_LISTED),
    },
  });
}

/** The SQL bounds of ids that start with `prefix`: `id >= low AND id < high` (uses the primary key). */
export function idPrefixRange(prefix: string): [low: string, high: string] {
  return [prefix, `${prefix}\uffff`];
}
