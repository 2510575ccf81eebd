import { CREDENTIAL_PATTERNS } from './credential-forms';
import { NAMED_FORMS } from './named-values';
import { PROVIDER_PATTERNS } from './provider-patterns';
import { PREFIXED_TOKENS, prefixFinders } from './provider-tokens';
import { pinned, type SecretPattern } from './secret-pattern';

export type { SecretPattern } from './secret-pattern';

/**
 * The credential formats redactSecrets knows, by class. Every quantifier is
 * bounded and every pattern starts with a literal prefix or a look-behind
 * that pins it to the start of a run, so a scan is linear in the text's
 * length whatever the text (`redact-secrets.test.ts` checks the shapes).
 * The classes, in the order they run:
 *
 * 1. private key blocks (PEM, OpenSSH, PGP, PuTTY, age);
 * 2. issuer prefixes (PREFIXED_TOKENS: clouds, code hosts, registries, CI,
 *    chat, mail, payments, model providers) and issuer formats
 *    (PROVIDER_PATTERNS: JWTs, webhooks, multi-part tokens, an unknown
 *    `vendor_<generated>` token);
 * 3. places (CREDENTIAL_PATTERNS: URL userinfo, Authorization and Cookie
 *    headers, `.netrc` and `.pgpass` lines, `curl -u`, `mysql -p`);
 * 4. named values (NAMED_FORMS: assignments, flags, markup, calls) whose
 *    name has a secret word stem (secret-names.ts).
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  ...PROVIDER_PATTERNS,
  {
    kind: 'bearer-token',
    pattern: pinned(/Bearer[ \t]{1,5}([A-Za-z0-9._~+/-]{20,4000}={0,2})/g),
    group: 1,
    hint: ['Bearer'],
  },
  ...CREDENTIAL_PATTERNS,
];

export const PRIVATE_KEY_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY( BLOCK)?-----/g;
export const PRIVATE_KEY_END = /-----END (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY( BLOCK)?-----/g;

/** Every regex source a scan runs, for the shape test (bounded repetition only). */
export function patternSources(): string[] {
  return [
    ...SECRET_PATTERNS.map((p) => p.pattern.source),
    ...NAMED_FORMS.map((f) => f.pattern.source),
    ...PREFIXED_TOKENS.map((row) => row.body),
    ...prefixFinders().map((f) => f.pattern.source),
    PRIVATE_KEY_BEGIN.source,
    PRIVATE_KEY_END.source,
  ];
}
