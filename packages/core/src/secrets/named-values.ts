import {
  isPathValue,
  isPlaceholder,
  looksRandom,
  type NameStrength,
  nameWords,
  secretNameStrength,
} from './secret-names';
import { bump, type Counts, redactionMark, runStart } from './secret-pattern';

/**
 * Values that a name says are secret, in every form a name and its value
 * take: `NAME=value`, `name: value`, `"name": "value"`, `name => 'value'`,
 * `NAME := value`, escaped JSON (`{\"token\":\"…\"}`), `--password value`,
 * `-storepass value`, `ENV NAME value`, `set NAME value`,
 * `aws_secret_access_key value`, `<password>…</password>`, plist
 * `<key>…</key><string>…</string>`, `key="Password" value="…"` and
 * `setPassword("…")`. Each form is one bounded regex whose last group is
 * the value; the name decides (secret-names.ts).
 */

/**
 * A quoted value (escapes allowed), escaped JSON, a backquoted word (markdown
 * quotes prose in backquotes: `Authorization:` and `…`), or a run up to a
 * space or quote.
 */
const VALUE =
  /"(?:[^"\\\n]|\\.){1,500}"|'(?:[^'\\\n]|\\.){1,500}'|\\{1,7}"[^"\\\n]{1,500}\\{1,7}"|`[^`\s]{1,500}`|[^\s"'`]{1,500}/
    .source;

/** A name with a secret stem somewhere in it: markup elements are rarely about secrets. */
const HAS_STEM = '(?=[A-Za-z0-9_.:-]{0,100}(?:pass|pw|secret|token|key|auth|cred|sig))';

type FormName = 'assignment' | 'flag' | 'spaced' | 'markup' | 'call';

interface NamedForm {
  form: FormName;
  kind: string;
  pattern: RegExp;
  /** Strings one of which every match holds: a text holding none is not scanned (SecretPattern.hint). */
  hint?: readonly string[];
}

export const NAMED_FORMS: readonly NamedForm[] = [
  {
    form: 'flag',
    kind: 'cli-flag',
    pattern: new RegExp(
      `${runStart('A-Za-z0-9_}-')}--?(?<name>[A-Za-z][A-Za-z0-9_-]{1,60})(?<sep>=|[ \\t]{1,5})`,
      'g',
    ),
  },
  {
    form: 'markup',
    kind: 'assignment',
    pattern:
      /<key>(?<name>[^<\n]{1,100})<\/key>(?:\s|\\[nrt]){0,50}<string>(?<value>[^<\n]{1,500})(?=<\/string>)/g,
    hint: ['<key>'],
  },
  {
    form: 'markup',
    kind: 'assignment',
    pattern:
      /\bkey=(\\{0,7}["'])(?<name>[^"'\\\n]{1,100})\1[ \t]{1,10}value=(?<value>\\{0,7}"[^"\\\n]{1,500}\\{0,7}"|'[^'\n]{1,500}')/g,
    hint: ['value='],
  },
  {
    // The `(` first, the setter's name behind it.
    form: 'call',
    kind: 'assignment',
    pattern:
      /\((?<=(?<![A-Za-z0-9_$])(?:[Ss]et|[Ww]ith)_?(?<name>[A-Za-z][A-Za-z0-9_]{0,60})\()[ \t]{0,5}(?<value>\\{0,7}"[^"\\\n]{1,500}\\{0,7}"|'[^'\n]{1,500}')/g,
    hint: ['('],
  },
  {
    // The separator first, the name behind it.
    form: 'assignment',
    kind: 'assignment',
    pattern: new RegExp(
      `(?:=>|:=|\\?=|=(?![=~])|:(?![:/=]))(?<=${runStart('A-Za-z0-9_.-')}(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,100})(?<gap>(?:\\\\{0,7}["'])?[ \\t]{0,5})(?:=>|:=|\\?=|=|:))[ \\t]{0,5}`,
      'g',
    ),
  },
  {
    form: 'markup',
    kind: 'assignment',
    pattern: new RegExp(
      `<${HAS_STEM}(?<name>[A-Za-z_][A-Za-z0-9_.:-]{0,60})(?:[ \\t][^<>\\n]{0,200})?>(?<value>[^<\\n]{1,500})(?=</\\k<name>>)`,
      'gi',
    ),
    hint: ['</'],
  },
  {
    // `ENV NAME value` (Dockerfile), `set NAME value`, `setx NAME value`.
    form: 'spaced',
    kind: 'assignment',
    pattern:
      /(?<![A-Za-z0-9_.$-])(?<kw>(?:ENV|SET|setx|set(?:[ \t]{1,5}-[A-Za-z]{1,3})?)[ \t]{1,5})(?<name>[A-Za-z_][A-Za-z0-9_.-]{2,100})[ \t]{1,10}/g,
    hint: ['ENV', 'SET', 'set'],
  },
  {
    // `aws_secret_access_key value`: a compound name, found at its first `_`.
    form: 'spaced',
    kind: 'assignment',
    pattern: new RegExp(
      `_(?<=${runStart('A-Za-z0-9_.$-')}(?<head>[A-Za-z][A-Za-z0-9.-]{0,40})_)(?<rest>[A-Za-z0-9_.-]{0,60})[ \\t]{1,10}`,
      'g',
    ),
    hint: ['_'],
  },
];

/** What declares a name in code right before it: `const`, `let`, `var`, `val`. */
const DECLARATION = /(?:^|[^\w$])(?:const|let|var|val)[ \t]{1,5}$/;

/** Query parameters that carry a signature: Azure SAS `sig=`, presigned S3 and GCS URLs. */
const SIGNATURE_PARAMS = new Set(['sig', 'signature', 'x-amz-signature', 'x-goog-signature']);

/** Scheme words an Authorization header's value starts with (credential-forms.ts redacts what follows). */
const AUTH_SCHEME = /^(?:basic|bearer|token|digest|negotiate|ntlm|apikey)$/i;
const SCHEME_FIRST = /^(?:basic|bearer|token|digest|negotiate|ntlm|apikey)[ \t]{1,5}/i;

/** Characters after which another field may start inside an unquoted run. */
const FIELD_SEPARATOR = ';&,([{|';

/** The next field: a name, then `=` (not base64 padding `==`). */
const NEXT_FIELD = /^[A-Za-z_][A-Za-z0-9_.-]{0,60}=(?!=)/;

/**
 * An unquoted value ends early at an escape of escaped text (`\n`, `\"`),
 * at `;`, `&`, `,`, `(`, `[`, `{` or `|` when the next field follows
 * (`Password=x;User=y`, `?token=x&page=2`, `&&`), and before trailing
 * punctuation (`f(pw=x)`, `token=x.`). Elsewhere these characters belong
 * to the value: a password holding `,;&)` is redacted whole.
 */
export function cutValue(value: string): string {
  let end = value.length;
  for (let i = 0; i < end; i++) {
    const c = value[i]!;
    if (c === '\\' && /[nrt"'\\]/.test(value[i + 1] ?? '')) end = i;
    else if (FIELD_SEPARATOR.includes(c)) {
      const rest = value.slice(i + 1, i + 80);
      if (rest === '' || NEXT_FIELD.test(rest) || (c === '&' && rest[0] === '&')) end = i;
    }
  }
  let out = value.slice(0, end);
  while (out && /[)\]}>.,;:!?]/.test(out.at(-1)!)) out = out.slice(0, -1);
  return out;
}

/** The value without its quotes, and where the inside starts. */
function unquote(raw: string, form: FormName): { inner: string; offset: number } {
  const escaped = /^(\\{1,7})"/.exec(raw);
  if (escaped)
    return { inner: raw.slice(escaped[0].length, -escaped[0].length), offset: escaped[0].length };
  if (/^["'`]/.test(raw) && raw.length > 1) return { inner: raw.slice(1, -1), offset: 1 };
  return { inner: form === 'markup' ? raw.trim() : cutValue(raw), offset: 0 };
}

interface Candidate {
  form: FormName;
  name: string;
  /** A declaration in code (`const token = …`): its value is an expression unless quoted. */
  declared: boolean;
  /** The character before the name (`?` and `&` make `sig=` a signature). */
  before: string;
  keyword: boolean;
  spaced: boolean;
}

function strengthOf(c: Candidate): NameStrength | undefined {
  if ((c.before === '?' || c.before === '&') && SIGNATURE_PARAMS.has(c.name.toLowerCase()))
    return 'strong';
  return secretNameStrength(c.name, c.form === 'flag');
}

/** Whether the value a name gives is a secret to redact. */
function secretValue(c: Candidate, strength: NameStrength, raw: string, inner: string): boolean {
  // A value holding a mark was redacted already (`keys: AWS_ACCESS_KEY_ID=[REDACTED:…]`).
  if (inner.includes('[REDACTED:') || isPlaceholder(inner, c.name) || isPathValue(inner))
    return false;
  // `${VAR}`, `$(cmd)` and `hash(input),` before the cut dropped their closing bracket.
  if (/^[$\w]/.test(raw) && raw !== inner && isPlaceholder(raw)) return false;
  if (AUTH_SCHEME.test(inner)) return false;
  // `"Authorization": "Bearer <token>"`: the scheme, then a placeholder.
  if (SCHEME_FIRST.test(inner) && isPlaceholder(inner.replace(SCHEME_FIRST, ''))) return false;
  if (strength === 'weak' && !looksRandom(inner, 6)) return false;
  if (c.form === 'flag' && c.spaced && inner.startsWith('-')) return false;
  // `const token = rotated ? …`, `let key = keyOf(root)`: code, unless quoted or generated.
  if (c.declared && !/^["'`\\]/.test(raw) && !looksRandom(inner, 8)) return false;
  if (c.form !== 'spaced' || c.keyword) return true;
  // `NAME value` with no keyword: a compound name and a value that looks generated.
  return strength === 'strong' && nameWords(c.name).length > 1 && looksRandom(inner, 8);
}

/** Where the secret sits inside the raw value, or undefined to keep it. */
function secretSpan(
  c: Candidate,
  strength: NameStrength,
  raw: string,
): [number, number] | undefined {
  const { inner, offset } = unquote(raw, c.form);
  if (!secretValue(c, strength, raw, inner)) return undefined;
  const start = c.form === 'markup' ? raw.indexOf(inner) : offset;
  return [start, start + inner.length];
}

/** A value where a separator ends, read only after a secret name: a kept name costs its length. */
const VALUE_AT = new RegExp(`(?:${VALUE})`, 'y');

/** The value of a match (in the match for markup and calls, after it otherwise) and where it starts. */
function readValue(text: string, match: RegExpExecArray): { raw: string; at: number } | undefined {
  const inMatch = match.groups?.value;
  if (inMatch !== undefined) {
    return { raw: inMatch, at: match.index + match[0].length - inMatch.length };
  }
  const at = match.index + match[0].length;
  VALUE_AT.lastIndex = at;
  const raw = VALUE_AT.exec(text)?.[0];
  return raw === undefined ? undefined : { raw, at };
}

function candidateOf(text: string, form: FormName, match: RegExpExecArray): Candidate {
  const groups = match.groups ?? {};
  const name = (groups.name ?? `${groups.head ?? ''}_${groups.rest ?? ''}`).trim();
  // An assignment's name sits behind the match, `gap` (quote and spaces) after it.
  const nameAt =
    groups.gap === undefined ? match.index : match.index - groups.gap.length - name.length;
  return {
    form,
    name,
    before: text[nameAt - 1] ?? '',
    declared: DECLARATION.test(text.slice(Math.max(0, nameAt - 12), nameAt)),
    keyword: Boolean(groups.kw),
    spaced: groups.sep !== undefined && groups.sep !== '=',
  };
}

/**
 * One form over the text. The name decides first; only a secret name's
 * value is read. A kept value is scanned again (`note: DB_PASSWORD=…`,
 * `--name --password x`): the next match starts where the value does, so
 * each character is read a bounded number of times and the pass stays
 * linear.
 */
function redactForm(
  text: string,
  { form, kind, pattern: scan }: NamedForm,
  counts: Counts,
): string {
  scan.lastIndex = 0;
  let out = '';
  let at = 0;
  for (let match = scan.exec(text); match; match = scan.exec(text)) {
    const candidate = candidateOf(text, form, match);
    const strength = strengthOf(candidate);
    const value = strength && readValue(text, match);
    const span = value && strength && secretSpan(candidate, strength, value.raw);
    if (!span) {
      // A value inside the match (markup) is scanned again from its start, inside its quote.
      if (value && match.groups?.value !== undefined)
        scan.lastIndex = value.at + (/^["'`\\]/.test(value.raw) ? 1 : 0);
      continue;
    }
    bump(counts, kind);
    out += text.slice(at, value.at + span[0]) + redactionMark(kind);
    at = value.at + span[1];
    scan.lastIndex = at;
  }
  return out + text.slice(at);
}

/** Every named form, one after the other. */
export function redactNamedValues(text: string, counts: Counts): string {
  let out = text;
  for (const form of NAMED_FORMS) {
    if (form.hint && !form.hint.some((needle) => out.includes(needle))) continue;
    out = redactForm(out, form, counts);
  }
  return out;
}
