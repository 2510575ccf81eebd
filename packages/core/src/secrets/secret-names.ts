/**
 * Which names say their value is a secret, and which values are only a
 * reference to one. Names are read by their words (`GITHUB_TOKEN`,
 * `db.password`, `apiKey`, `--client-secret`) and by word stems, so a
 * name nobody listed (`SMTP_PASS`, `ADMIN_PW`, `PGPASSWORD`, `csrftoken`)
 * is still recognised.
 */

import {
  NOT_SHORT_STEM,
  PLAIN_KEY_QUALIFIERS,
  QUALIFIERS,
  SECRET_KEY_WORDS,
  SECRET_STEMS,
  SHORT_STEMS,
  SWITCH_WORDS,
} from './secret-words';

/** How sure a name makes us: `strong` takes any value, `weak` only one that looks random. */
export type NameStrength = 'strong' | 'weak';

/** `GITHUB_TOKEN`, `db.password`, `apiKey`, `client-secret` → their words, lower case. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]{1,10}/)
    .filter(Boolean);
}

const endsWithStem = (word: string) => SECRET_STEMS.some((stem) => word.endsWith(stem));
const shortStem = (word: string) =>
  !NOT_SHORT_STEM.has(word) && SHORT_STEMS.some((stem) => word.endsWith(stem));

function keyStrength(words: string[]): NameStrength | undefined {
  const last = words.at(-1) ?? '';
  if (SECRET_KEY_WORDS.has(last)) return 'strong';
  if (last !== 'key' && last !== 'keys') return undefined;
  if (words.length === 1) return 'weak';
  return PLAIN_KEY_QUALIFIERS.has(words.at(-2) ?? '') ? undefined : 'strong';
}

/**
 * How strongly a name says its value is secret, or undefined when it does
 * not. A word ending with a stem (password, passwd, pwd, secret, token,
 * credential, apikey…) is strong; a short stem (pass, pw, auth) is strong
 * inside a compound name (`SMTP_PASS`, `ADMIN_PW`) and weak alone; so is a
 * bare `key`, while `api_key` and `secret_access_key` are strong and
 * `primary_key` or `sessionKey` are nothing. A last word such as file,
 * path, count or env (`password_file`, `apiKeyEnv`) makes it nothing, and
 * so does, for a command-line flag, a first word such as no, ask or with
 * (`--no-password`, `--with-token` take no value).
 */
export function secretNameStrength(name: string, flag = false): NameStrength | undefined {
  const words = nameWords(name);
  const last = words.at(-1);
  if (!last || QUALIFIERS.has(last)) return undefined;
  if (flag && SWITCH_WORDS.has(words[0] ?? '')) return undefined;
  const byKey = keyStrength(words);
  if (byKey) return byKey;
  if (words.some(endsWithStem)) return 'strong';
  if (words.some(shortStem)) return words.length > 1 ? 'strong' : 'weak';
  return undefined;
}

/** Whether a name says its value is secret, strongly or weakly. */
export function isSecretName(name: string): boolean {
  return secretNameStrength(name) !== undefined;
}

/**
 * Values that point at a secret without being one: environment references
 * (`${VAR}`, `$VAR` in capitals, `%VAR%`, `{{ var }}`, `process.env.X`,
 * `os.getenv(...)`), placeholders (`<your token>`, `****`, `xxx`,
 * `value`, `example`), a mark left by an earlier pass, booleans and nulls,
 * and type names (`password: string;` in TypeScript, `token: str`). `$uper5ecret` is not a
 * reference: a shell variable in lower case after `$` is taken as text.
 */
const PLACEHOLDER =
  /^(?:\$\{[^}]{1,100}\}|\$\(.{1,100}\)|%[A-Za-z_][A-Za-z0-9_]{0,100}%|\{\{.{0,100}\}\}|<[^>]{0,100}>?|\*{1,100}|x{3,100}|\.{3}|…|\[REDACTED[^\]]{0,50}\]?|true|false|null|nil|none|undefined|value|example|placeholder|redacted|todo|tbd|string|str|number|int|bool|boolean|bytes|any|unknown|optional\[.{0,40}\]|string\s?\|\s?undefined|your[_-].{0,60}|.{0,60}[_-]here|(?:process\.env|import\.meta\.env|os\.environ|ENV|System\.getenv|os\.getenv|getenv|Deno\.env\.get|env)\b.{0,100})$/i;

/**
 * `$VAR` in capitals (case matters: `$uper5ecret` is a value that starts
 * with `$`), or a constant's name (`OPENAI_API_KEY`, `SEARCH_AND_HOOKS`).
 */
const VARIABLE = /^(?:\$[A-Z_][A-Z0-9_]{0,100}|[A-Z][A-Z0-9]{0,40}(?:_[A-Z0-9]{1,40}){1,10})$/;

/** Receivers whose fields hold a secret in code: `this.token`, `config.db.password`. */
const CODE_REFERENCE =
  /^(?:this|self|cls|config|cfg|conf|settings|options|opts|env|secrets|vars|inputs|args|params|props|ctx|context|req|request|credentials|creds|auth|session|app)(?:\.[A-Za-z_$][\w$]{0,60}){1,6}$/;

/** A member path or index in code, letters only: `item.tokenCost`, `values['no-auth']`. */
const MEMBER =
  /^[A-Za-z_$][A-Za-z_$]{0,60}(?:\.[A-Za-z_$][A-Za-z_$]{0,60}|\[['"][\w-]{1,60}['"]\]){1,6}[,;]?$/;

/** A call in code: `getToken()`, `hashPassword(input),`, or a method call begun, `z.string().min(1,`. */
const CODE_CALL = /^([A-Za-z_$][\w$.]{0,100})\((?:[^()]{0,100}\)[,;]?$)?/;

/** Code reads as words (`hashPassword(`, `keyOf(`, `item.tokenCost`); a generated value (`J5uc…Q(`) does not. */
function isCode(value: string): boolean {
  const call = CODE_CALL.exec(value);
  if (call) {
    const callee = call[1]!;
    const closed = call[0].length === value.length;
    const words = !/\d/.test(callee) || lowerRunShare(callee) >= 0.5;
    return words && (closed || callee.includes('.'));
  }
  return MEMBER.test(value) && lowerRunShare(value) >= 0.5;
}

/**
 * A type in code, as an annotation gives it: `key: Uint8Array`, `keys:
 * string[]`, `userKeys: ReadonlySet<string>`, `byKey: Map<string, number>`.
 */
const TYPE_EXPRESSION =
  /^(?:readonly\s{1,3})?(?:[A-Z][A-Za-z]{1,40}<(?:[A-Z][A-Za-z]{0,40}|string|number|boolean|bigint|unknown|any)\b.{0,200}|(?:string|number|boolean|bigint|unknown|any|object)\[\].{0,100}|(?:Uint|Int|Float|BigUint|BigInt)(?:8|16|32|64)(?:Clamped)?Array\b.{0,100})$/;

/** A template made only of interpolations: `${target.id}:${entry.path}`. */
const INTERPOLATIONS = /^(?:\$\{[^}]{1,100}\}[^\w\s$]{0,3}){2,10}$/;

/** A keyword that starts an expression or a type in code: `token = await fetchToken()`. */
const CODE_KEYWORD =
  /^(?:await|new|yield|async|function|require|import|typeof|keyof|readonly|lambda|fn|func|def|return)$/;

/** Whether a value (quotes removed) only names or points at a secret. */
export function isPlaceholder(value: string, name = ''): boolean {
  if (value.length < 4) return true;
  if (VARIABLE.test(value) || PLACEHOLDER.test(value)) return true;
  if (CODE_REFERENCE.test(value) || isCode(value) || CODE_KEYWORD.test(value)) return true;
  if (TYPE_EXPRESSION.test(value) || INTERPOLATIONS.test(value)) return true;
  // `password: password`, `apiKey: apiKey,`: the name again, in code.
  return name !== '' && value.toLowerCase() === name.toLowerCase();
}

/** camelCase and PascalCase made of words, maybe dotted: `SummaryListKey`, `embedder.apiKeyEnv`. */
const IDENTIFIER =
  /^(?:(?:[a-z]{2,60}|[A-Z][a-z]{1,60})(?:[A-Z][a-z]{1,60}|[A-Z]{2,60}(?![a-z])){0,10}(?:[._-](?=[A-Za-z])|$)){1,10}$/;

/**
 * Whether a value looks like a generated secret rather than a word: at
 * least `min` characters mixing letters with digits, or upper with lower
 * case like generated text does (not like `ClearTextPassword`).
 * `hunter2secret` and `wJalrXUtnFEMI/K7MDENG` do; `variable`, `API_KEY`
 * and `1234` do not.
 */
export function looksRandom(value: string, min = 8): boolean {
  // Generated secrets hold no spaces, brackets, quotes or separators of code: `keyOf(root`
  // is code. What a value runs into after its token (`H3Fa…Wm)y`) does not count.
  const token = /^[^\s()[\]{}<>,;"'`]{0,500}/.exec(value)![0];
  if (token.length < min) return false;
  if (/[A-Za-z]/.test(token) && /\d/.test(token)) return true;
  if (IDENTIFIER.test(token)) return false;
  return /[a-z]/.test(token) && /[A-Z]/.test(token.slice(1)) && lowerRunShare(token) < 0.5;
}

/**
 * The share of a text in runs of four or more lower-case letters: words
 * and identifiers (`updateFirmwareVersion`) are mostly such runs, generated
 * text (`xR4kQ9mZ`) hardly any.
 */
export function lowerRunShare(text: string): number {
  let inRuns = 0;
  for (const run of text.match(/[a-z]{4,500}/g) ?? []) inRuns += run.length;
  return text.length === 0 ? 0 : inRuns / text.length;
}

/** Whether a value is a file path (`./key.pem`, `~/.ssh/id_ed25519`, `/run/secrets/db`). */
export function isPathValue(value: string): boolean {
  return /^(?:(?:~|\.{1,2})(?:\/[\w.@-]{1,200}){1,30}|(?:\/[\w.@-]{1,200}){2,30})\/?$/.test(value);
}
