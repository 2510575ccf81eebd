/**
 * Known credential formats. Every quantifier is bounded and every pattern
 * starts with a literal prefix or a look-behind that pins it to the start
 * of a run, so a scan is linear in the text's length whatever the text
 * (`secret-patterns.test.ts` checks the shapes). Formats from the vendors'
 * documentation; the sample values in tests are fake.
 */
export interface SecretPattern {
  kind: string;
  pattern: RegExp;
  /** Which capture group is the secret (the rest is kept); the whole match when absent. */
  group?: number;
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // Anthropic before OpenAI: both start with `sk-`.
  { kind: 'anthropic-key', pattern: /\bsk-ant-[a-z]{2,10}\d{2}-[A-Za-z0-9_-]{20,300}/g },
  {
    kind: 'openai-key',
    pattern:
      /\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]{0,300}\d)[A-Za-z0-9][A-Za-z0-9_-]{31,300}/g,
  },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g },
  { kind: 'github-token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,64}\b/g },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,250}/g },
  {
    kind: 'slack-webhook',
    pattern: /\bhttps:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,200}/g,
  },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'stripe-key', pattern: /\b[sr]k_(?:live|test)_[0-9A-Za-z]{20,250}\b/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,64}\b/g },
  {
    kind: 'jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{8,4000}\.eyJ[A-Za-z0-9_-]{8,8000}\.[A-Za-z0-9_-]{8,4000}/g,
  },
  {
    kind: 'bearer-token',
    pattern: /\b(Bearer[ \t]{1,5})([A-Za-z0-9._~+/-]{20,4000}={0,2})/g,
    group: 2,
  },
  {
    // scheme://user:password@host: the password goes, the rest stays readable.
    kind: 'connection-string',
    // RFC 3986 userinfo holds no `/`, so a URL path with an `@` is not taken for a password.
    pattern: /(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{0,200}:)([^\s@/]{1,200})@/gi,
    group: 2,
  },
];

/** Words in a setting's name that say its value is secret. */
const SECRET_WORDS = new Set([
  'secret',
  'token',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'credential',
  'credentials',
  'apikey',
  'auth',
]);

/** `GITHUB_TOKEN`, `db.password`, `apiKey`, `client-secret` → their words, lower case. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]{1,10}/)
    .filter(Boolean);
}

/** A name says secret, token, password, credential or auth, or ends in `key` (`api_key`, `secretKey`). */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  return words.some((word) => SECRET_WORDS.has(word)) || words.at(-1) === 'key';
}

/**
 * `NAME=value`, `NAME: value`, `"name": "value"`. The look-behind pins the
 * name to the start of its run, so each run is scanned once.
 */
export const ASSIGNMENT =
  /(?<![A-Za-z0-9_.-])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,100})\1[ \t]{0,5}[=:][ \t]{0,5}("[^"\n]{1,500}"|'[^'\n]{1,500}'|[^\s"'`,;&)}\]]{1,500})/g;

/** Values that point at a secret without being one. */
const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]{0,100}\}?|<[^>]{0,100}>?|\*{1,100}|x{3,100}|\[REDACTED[^\]]{0,50}\]?|true|false|null|none|undefined|process\.env\.[A-Za-z0-9_.]{1,100}|os\.environ.{0,100}|env\(.{0,100})$/i;

/** Whether an assignment's value (quotes removed) should be kept. */
export function isPlaceholder(value: string): boolean {
  return value.length < 4 || PLACEHOLDER.test(value);
}

export const PRIVATE_KEY_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY( BLOCK)?-----/g;
export const PRIVATE_KEY_END = /-----END (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY( BLOCK)?-----/g;
