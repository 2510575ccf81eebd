import { describe, expect, it } from 'vitest';
import { cutValue } from './named-values';
import { redactSecrets } from './redact-secrets';
import { looksRandom, secretNameStrength } from './secret-names';

// Fake values, assembled at run time so no credential-shaped literal sits in the source.
const r = (unit: string, times: number) => unit.repeat(times);
const v = (seed: string) => `${seed}${r('k9Q', 4)}Zx7`;

/**
 * Formats that once slipped through redactSecrets (each line
 * leaked on 9894862), by class, with the readable rest each must keep.
 */
const REPROS: [string, string, string, string][] = [
  // [what, line, the secret, a readable part that stays]
  ['psql --password=', `psql --password=${v('pg')} -h db app`, v('pg'), 'psql --password='],
  ['--token=', `gh api --token=${v('tok')} /user`, v('tok'), 'gh api --token='],
  ['--api-key=', `tool --api-key=${v('api')} run`, v('api'), ' run'],
  ['SMTP_PASS=', `SMTP_PASS=${v('smtp')}`, v('smtp'), 'SMTP_PASS='],
  ['ADMIN_PW=', `ADMIN_PW=${v('adm')}`, v('adm'), 'ADMIN_PW='],
  ['curl -u user:pass', `curl -u deploy:${v('curl')} https://x`, v('curl'), 'curl -u deploy:'],
  [
    'Authorization: Basic',
    `Authorization: Basic ${v('basic')}==`,
    v('basic'),
    'Authorization: Basic ',
  ],
  [
    'Authorization: Token',
    `Authorization: Token ${v('token')}`,
    v('token'),
    'Authorization: Token ',
  ],
  ['DB_PASSWORD=$uper…', `DB_PASSWORD=$uper${v('dollar')}`, v('dollar'), 'DB_PASSWORD='],
  ['a value holding ,', `DB_PASSWORD=ab,${v('comma')}`, v('comma'), 'DB_PASSWORD='],
  ['a value holding ;', `DB_PASSWORD=ab;${v('semi')}`, v('semi'), 'DB_PASSWORD='],
  ['a value holding &', `DB_PASSWORD=ab&${v('amp')}`, v('amp'), 'DB_PASSWORD='],
  ['a value holding )', `DB_PASSWORD=ab)${v('paren')}`, v('paren'), 'DB_PASSWORD='],
  [
    'a URL password holding /',
    `postgres://app:${v('url')}/x@db:5432/app`,
    v('url'),
    '@db:5432/app',
  ],
  [
    'aws_secret_access_key <value>',
    `aws configure set aws_secret_access_key ${v('aws')}`,
    v('aws'),
    'aws_secret_access_key ',
  ],
  ['.netrc', `machine api.example.com login ci password ${v('netrc')}`, v('netrc'), 'login ci'],
  ['.pgpass', `db.internal:5432:app:svc:${v('pgpass')}`, v('pgpass'), 'db.internal:5432:app:svc:'],
  [
    'xapp-',
    `SLACK=xapp-1-A0${r('B1C2', 3)}-${r('1234', 3)}-${r('ab12', 8)}`,
    r('ab12', 8),
    'SLACK=',
  ],
  ['pypi-', `twine -p pypi-AgEIcHlwaS5vcmc${r('Xy9_', 12)}`, r('Xy9_', 12), 'twine -p '],
  ['SG.', `key SG.${r('aB3', 8)}.${r('cD4', 15)}`, r('cD4', 15), 'key '],
  ['dckr_pat_', `docker dckr_pat_${r('Qw1-', 8)}`, r('Qw1-', 8), 'docker '],
  ['glrt-', `runner glrt-${r('Zx2_', 6)}`, r('Zx2_', 6), 'runner '],
  ['ya29.', `token ya29.${r('a0Af_', 12)}`, r('a0Af_', 12), 'token '],
];

describe('the formats that slipped through', () => {
  it.each(REPROS)('%s', (_, line, secret, kept) => {
    expect(line).toContain(secret);
    const { text, redacted } = redactSecrets(line);
    expect(redacted).toBe(true);
    expect(text).not.toContain(secret);
    expect(text).toContain(kept);
  });
});

/** Other members of the same classes (the held-out set is not these, but their kind). */
const CLASS_MEMBERS: [string, string, string][] = [
  ['a stem inside a word', `MYSQL_ROOTPASSWD=${v('stem')}`, v('stem')],
  ['a stem at a camelCase end', `const dbPassphrase = "${v('camel')}";`, v('camel')],
  ['a secret key by its words', `signing_key: ${v('signing')}`, v('signing')],
  ['a flag with a secret word', `deploy --client-secret ${v('flag')}`, v('flag')],
  ['a single-dash flag', `keytool -keypass ${v('keypass')}`, v('keypass')],
  ['export', `export GITLAB_TOKEN=${v('export')}`, v('export')],
  ['set (Windows)', `set REGISTRY_PASSWORD=${v('set')}`, v('set')],
  ['ENV (Dockerfile)', `ENV NPM_TOKEN ${v('env')}`, v('env')],
  ['=> (PHP, Ruby)', `'api_secret' => '${v('php')}',`, v('php')],
  [':= (Makefile, Go)', `TOKEN := ${v('make')}`, v('make')],
  ['escaped JSON', `{\\"password\\":\\"${v('escjson')}\\"}`, v('escjson')],
  ['XML element', `<apiToken>${v('xml')}</apiToken>`, v('xml')],
  ['a query parameter', `https://x.io/cb?state=1&access_token=${v('query')}&n=2`, v('query')],
  ['an ADO string', `Server=db;Uid=sa;Pwd=${v('ado')};Database=app`, v('ado')],
  ['a Proxy-Authorization header', `Proxy-Authorization: Digest ${v('digest')}`, v('digest')],
  ['a cookie', `Cookie: PHPSESSID=${v('cookie')}`, v('cookie')],
  ['an unknown vendor token', `use acme_live_${r('Q7wE9rT2', 5)}`, r('Q7wE9rT2', 5)],
  [
    'a token-only URL userinfo',
    `https://${r('a1B2c3D4', 4)}@git.example.com/r.git`,
    r('a1B2c3D4', 4),
  ],
  ['sshpass -p', `sshpass -p ${v('sshpass')} ssh host`, v('sshpass')],
  ['mysql -p glued', `mysqldump -uroot -p${v('mysql')} app`, v('mysql')],
];

describe('the classes, not the strings', () => {
  it.each(CLASS_MEMBERS)('%s', (_, line, secret) => {
    expect(redactSecrets(line).text).not.toContain(secret);
  });

  it('reads names by stem, with qualifiers and switches that name no secret', () => {
    const strength = (name: string, flag = false) => secretNameStrength(name, flag) ?? 'none';
    expect(
      [
        'SMTP_PASS',
        'ADMIN_PW',
        'PGPASSWORD',
        'csrftoken',
        'aws_secret_access_key',
        'X-Api-Key',
      ].map((name) => strength(name)),
    ).toEqual(['strong', 'strong', 'strong', 'strong', 'strong', 'strong']);
    expect(['key', 'pass', 'auth'].map((name) => strength(name))).toEqual(['weak', 'weak', 'weak']);
    expect(
      ['password_file', 'token_count', 'apiKeyEnv', 'primary_key', 'sessionKey', 'compass'].map(
        (name) => strength(name),
      ),
    ).toEqual(['none', 'none', 'none', 'none', 'none', 'none']);
    expect(strength('no-password', true)).toBe('none');
    expect(strength('no-password')).toBe('strong');
  });

  it('cuts a value at the next field, never inside it', () => {
    expect(cutValue('x;User=sa')).toBe('x');
    expect(cutValue('x&page=2')).toBe('x');
    expect(cutValue('x&&')).toBe('x');
    expect(cutValue('ab,cd;ef&gh)ij')).toBe('ab,cd;ef&gh)ij');
    expect(cutValue('abc),')).toBe('abc');
    expect(cutValue('abc\\nNEXT=1')).toBe('abc');
  });

  it('tells generated values from words', () => {
    expect(
      ['hunter2secret', 'xR4kQ9mZpL', 'wJalrXUtnFEMI/K7MDENG'].map((x) => looksRandom(x)),
    ).toEqual([true, true, true]);
    expect(
      ['variable', 'ClearTextPassword', 'API_KEY', '12345678'].map((x) => looksRandom(x)),
    ).toEqual([false, false, false, false]);
  });
});

/** Cases the fuzz suite found: a value must not swallow the name of the secret after it. */
const NEIGHBOURS: [string, string][] = [
  [`PASSWORD=%DB_PASSWORD%[SESSION_SECRET="${v('glued')}"`, v('glued')],
  [`export ADMIN_PW=${v('first')},SESSION_SECRET="${v('second')}"`, v('second')],
  [`postgres://localhost:5432/app[mysql://root:${v('inner')}@db:3306/app`, v('inner')],
  [`Authorization: Bearer abc(TOKEN="${v('paren')}")`, v('paren')],
  [`SMTP_PASS=${v('call')}(DB_PASSWORD=${v('dollar2')}`, v('call')],
  [`mysql -u root -p,<key>API_KEY</key><string>${v('plist')}</string>`, v('plist')],
];

describe('neighbours', () => {
  it.each(NEIGHBOURS)('%s', (line, secret) => {
    expect(redactSecrets(line).text).not.toContain(secret);
  });
});

describe('a value that holds a mark', () => {
  it('is not redacted again', () => {
    const key = ['AK', 'IA', r('QWERTYUI', 2)].join('');
    expect(redactSecrets(`Deploy keys: AWS_ACCESS_KEY_ID=${key} and more`).text).toBe(
      'Deploy keys: AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key] and more',
    );
  });
});

describe('more of the same classes', () => {
  it.each([
    ['a common word as a password', 'POSTGRES_PASSWORD=secret', 'secret'],
    ['a Java property', `spring.datasource.password=${v('spring')}`, v('spring')],
    ['openssl -passin pass:', `openssl rsa -in k.pem -passin pass:${v('openssl')}`, v('openssl')],
    ['curl --oauth2-bearer', `curl --oauth2-bearer ${v('bearer')} https://x`, v('bearer')],
    [
      'kubectl --from-literal',
      `kubectl create secret generic db --from-literal=password=${v('k8s')}`,
      v('k8s'),
    ],
    ['PowerShell $env:', `$env:API_KEY = "${v('pwsh')}"`, v('pwsh')],
    ['fish set -x', `set -x OPENAI_API_KEY ${v('fish')}`, v('fish')],
    ['a git credential store line', `https://ci:${v('gitcred')}@github.com`, v('gitcred')],
  ])('%s', (_, line, secret) => {
    expect(redactSecrets(line).text).not.toContain(secret);
  });
});
