import { WRAPPER_CODES } from './rules/package-manager-rules';

/**
 * The low-information rule (docs/HISTORY.md#low-information-signatures):
 * a signature whose key says too little to stand for one failure, such as
 * `generic: <n> test failed` or `generic: error: |-`, would join failures
 * that need different fixes. It is recorded like any other, but it never
 * surfaces a known fix (after a failing tool, in the pack, for a session)
 * and never becomes a draft unit.
 */

/** Fewer distinctive tokens than this in a key is too little information. */
export const MIN_DISTINCTIVE_TOKENS = 2;

/** The placeholders scrubVolatile puts where volatile text was. */
const PLACEHOLDER = /<(?:url|uuid|time|path|hex|id|dur|n)>/g;
const TOKEN = /[A-Za-z_][A-Za-z0-9_]*/g;
/** A quoted literal counts as one token, punctuation included (`';' expected`). */
const QUOTED = /'[^'\s]{1,80}'|"[^"\s]{1,80}"|`[^`\s]{1,80}`/g;

/** Words every failure prints, and the codes that only say "the script failed": they tell no failure from another. */
const COMMON = new Set([
  ...[
    'error errors err failed fail fails failure failures failing exception fatal',
    'test tests spec specs suite ok not exit code status line file files command',
    'the a an of in at to is be and or for on by it no was were has have see run ran',
    'js ts mjs cjs jsx tsx py rb go rs java php',
  ]
    .join(' ')
    .split(' '),
  ...[...WRAPPER_CODES].map((code) => code.toLowerCase()),
]);

/**
 * An error class or code: `Error`, `TypeError`, `KeyError`, `ERR_PNPM_X`,
 * `ENOENT`, `E0308`, `TS2345`, `YN0028`, `[Errno 2]` (not a lower-case
 * `error:`, which any line may start with).
 */
const ERROR_CLASS =
  /\b(?:\w*(?:Error|Exception|Failure)|ERR_[A-Z0-9_]+|E[A-Z]{3,}|E\d{3,5}|TS\d{4,5}|YN\d{4}|Errno)\b/;

/** What the rule says; `normalized` starts with it (`vitest: …`) when it is not given. */
export interface SignatureText {
  normalized: string;
  family?: string;
}

/** `family: key [tool: command]` → family and key. */
function parts(signature: SignatureText): { family: string; key: string } {
  const family = signature.family ?? signature.normalized.split(': ', 1)[0] ?? '';
  const prefix = `${family}: `;
  let key = signature.normalized.startsWith(prefix)
    ? signature.normalized.slice(prefix.length)
    : signature.normalized;
  const where = key.lastIndexOf(' [');
  if (where >= 0 && key.endsWith(']')) key = key.slice(0, where);
  return { family, key };
}

export interface SignatureInformation {
  /** Distinct tokens of the key once placeholders and common words are gone. */
  distinctiveTokens: number;
  /** Whether the key names an error class or code. */
  hasErrorClass: boolean;
  lowInformation: boolean;
  /** Why it is low-information, for people. */
  reason?: string;
}

/** How much a signature's key tells (see the module comment). */
export function signatureInformation(signature: SignatureText): SignatureInformation {
  const { family, key: raw } = parts(signature);
  const key = raw.replace(PLACEHOLDER, ' ');
  const quoted = key.match(QUOTED) ?? [];
  const words = key.replace(QUOTED, ' ').match(TOKEN) ?? [];
  const distinct = new Set([
    ...quoted,
    ...words.map((word) => word.toLowerCase()).filter((word) => !COMMON.has(word)),
  ]);
  const hasErrorClass = ERROR_CLASS.test(key);
  const info = { distinctiveTokens: distinct.size, hasErrorClass };
  if (distinct.size < MIN_DISTINCTIVE_TOKENS)
    return {
      ...info,
      lowInformation: true,
      reason: `${distinct.size} distinctive token(s) once normalized`,
    };
  if (family === 'generic' && !hasErrorClass)
    return { ...info, lowInformation: true, reason: 'an unknown tool and no error class' };
  return { ...info, lowInformation: false };
}

/** True when the signature may not surface a known fix or become a draft unit. */
export function isLowInformation(signature: SignatureText): boolean {
  return signatureInformation(signature).lowInformation;
}
