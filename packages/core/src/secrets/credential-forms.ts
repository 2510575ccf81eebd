import { looksGenerated } from './provider-tokens';
import { isPlaceholder, looksRandom } from './secret-names';
import { isMark, runStart, type SecretPattern } from './secret-pattern';

/**
 * Where a secret sits in a known place rather than in a known shape:
 * the userinfo of a URL, an HTTP authorization header or cookie, a line of
 * `.netrc` or `.pgpass`, the password argument of curl, mysql or a
 * registry login, and the lines of a PuTTY private key. Named values
 * (`NAME=value`, `--password value`, `<password>…</password>`) are read by
 * named-values.ts.
 */

/** The password of a URL unless it is a port and a path (`host:8080/users/@alice`). */
const urlPassword = (password: string) =>
  !/^\d{1,5}(?:[/?#]|$)/.test(password) && !isMark(password);

/** Schemes an Authorization header names before its credentials. */
const AUTH_SCHEMES =
  'bearer|basic|token|digest|apikey|api-key|key|bot|negotiate|ntlm|ssws|jwt|oauth|mac|hawk|signature|aws4-hmac-sha256|aws|splunk|genie[a-z]{0,10}|dsn|session|hoba|mutual|scram-sha-(?:1|256)|vapid|sharedkey|sharedaccesssignature';

/** The header names a scheme right before the credential. */
const SCHEME_BEFORE = new RegExp(`(?:${AUTH_SCHEMES})[ \\t]{1,5}$`, 'i');

/** A scheme word alone is no credential (`Authorization: Bearer [REDACTED:…]`). */
const SCHEME_ONLY = new RegExp(`^(?:${AUTH_SCHEMES})$`, 'i');

const credential = (secret: string) =>
  !isMark(secret) && !isPlaceholder(secret) && !SCHEME_ONLY.test(secret);

/** `scheme://` where a URL starts: the literal first, the scheme behind it. */
const URL_START = `:\\/\\/(?<=${runStart('A-Za-z0-9+.-')}[a-z][a-z0-9+.-]{1,20}:\\/\\/)`;

export const CREDENTIAL_PATTERNS: readonly SecretPattern[] = [
  {
    // scheme://user:password@host. The password may hold `/`, `:` and `@`:
    // it runs to the last `@` before the host, never past a `?` or `#`.
    kind: 'connection-string',
    pattern: new RegExp(
      `${URL_START}[^\\s:/@"'<>\`[\\]]{0,200}:([^\\s"'<>\`?#\\\\]{1,200})(?=@[A-Za-z0-9[_])`,
      'gi',
    ),
    group: 1,
    hint: ['@'],
    accept: urlPassword,
  },
  {
    // A token as the whole userinfo: `https://<key>@o1.ingest.sentry.io/2`, a git remote with a token.
    kind: 'connection-string',
    pattern: new RegExp(`${URL_START}([A-Za-z0-9_.~-]{20,200})(?=@[A-Za-z0-9])`, 'gi'),
    group: 1,
    hint: ['@'],
    accept: (token) => looksGenerated(token.replace(/[_.~-]/g, '')),
  },
  {
    // `Authorization: Basic …`, `Token …`, `Digest …`, a bare credential; JSON (escaped too) and curl -H forms.
    kind: 'http-auth',
    pattern: new RegExp(
      `${runStart('A-Za-z0-9_-')}(?:proxy-)?authorization(?:\\\\{0,7}["'])?[ \\t]{0,5}[:=][ \\t]{0,5}(?:\\\\{0,7}["'])?(?:(?:${AUTH_SCHEMES})[ \\t]{1,5})?([^\\s"'\`\\\\{}()<>[\\],;]{3,4000})`,
      'gi',
    ),
    group: 1,
    hint: ['authorization'],
    caseless: true,
    // Without a scheme, only a credential that looks generated: `authorization: token` in code is a variable.
    accept: (secret, match) =>
      credential(secret) &&
      (SCHEME_BEFORE.test(match.slice(0, -secret.length)) || looksRandom(secret)),
  },
  {
    // Every cookie of a Cookie or Set-Cookie header: session ids are credentials.
    kind: 'http-auth',
    pattern: new RegExp(
      `cookie(?<=${runStart('A-Za-z0-9_-')}(?:set-)?cookie)["']?[ \\t]{0,5}:[ \\t]{0,5}["']?([A-Za-z0-9_.!#$%&*+^|~-]{1,100}=[^\\r\\n"'\`\\\\]{1,4000})`,
      'gi',
    ),
    group: 1,
    hint: ['cookie'],
    caseless: true,
    accept: (cookies) => !isMark(cookies),
  },
  {
    // .netrc: `machine h login u password p`, on one line or several.
    kind: 'credential-file',
    pattern: new RegExp(
      `${runStart()}(?:login|user)[ \\t]{1,10}[^\\s\\\\]{1,200}(?:\\s|\\\\[nrt]){1,20}(?:password|passwd|account)[ \\t]{1,10}([^\\s"'\`\\\\<>]{1,500})`,
      'g',
    ),
    group: 1,
    hint: ['password', 'passwd', 'account'],
    accept: (password) => !isMark(password),
  },
  {
    // .pgpass: `host:port:database:user:password`, one entry per line.
    kind: 'credential-file',
    pattern:
      /:(?=(?:\d{1,5}|\*):)(?<=(?<![\w.*/-])[\w.*/-]{1,253}:)(?:\d{1,5}|\*):[^\s:`"'\\,]{1,100}:[^\s:`"'\\,]{1,100}:([^\s`"'\\\p{Cc}]{4,500})/gmu,
    group: 1,
    accept: (password) => !isMark(password),
  },
  {
    // curl -u user:password (also --user, --proxy-user, -uuser:password); not a uid:gid pair.
    kind: 'cli-flag',
    pattern: new RegExp(
      `-(?:-user|-proxy-user|u|U)(?<=${runStart('A-Za-z0-9_-')}-(?:-user|-proxy-user|u|U))(?:=|[ \\t]{0,5})["']?[^\\s:"'@[\\]]{1,200}:([^\\s"'\\\\]{1,500})`,
      'g',
    ),
    group: 1,
    hint: ['-u', '-U'],
    accept: (password, match) =>
      credential(password) &&
      !(/^\d{1,10}$/.test(password) && /\d:$/.test(match.slice(0, -password.length))),
  },
  {
    // A password glued to -p or after it: mysql and its tools, sshpass, `docker login -p`
    // (not the name of an assignment that follows: `mysql -p NAME := …`).
    kind: 'cli-flag',
    pattern: new RegExp(
      `-p(?<=${runStart()}(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump|sshpass|login)\\b[^\\n|;&]{0,200}[ \\t]-p)[ \\t]{0,5}([^\\s'"\\\\<>,;|&-][^\\s'"\\\\<>]{2,200}(?![^\\s]|[ \\t]{1,5}:?=)|'[^'\\n]{1,200}'|"[^"\\n]{1,200}")`,
      'g',
    ),
    group: 1,
    hint: [' -p', '\t-p'],
    accept: (password) => credential(password.replace(/^["']|["']$/g, '')),
  },
  {
    // PuTTY key files: the base64 lines after `Private-Lines: N` (one line once a snippet flattened them).
    kind: 'private-key',
    pattern:
      /Private-Lines:[ \t]{0,5}\d{1,3}(?:\r?\n|(?:\\r)?\\n|[ \t])((?:[A-Za-z0-9+/=]{1,200}(?:\r?\n|(?:\\r)?\\n|[ \t])){1,200})/g,
    group: 1,
    hint: ['Private-Lines:'],
  },
];
