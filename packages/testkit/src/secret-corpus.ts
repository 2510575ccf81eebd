/**
 * The full corpus of fake credentials, organised by the classes Cairn's
 * redaction knows (docs/SECURITY.md#redaction-classes): private keys,
 * issuer tokens, named values, command-line flags, HTTP auth, connection
 * strings and credential files. Every value is generated at run time from
 * a seeded generator and harmless pieces, so no credential-shaped literal
 * sits in the source for a push-protection scanner to flag; none is a
 * real key. `fakeSecrets()` (fake-secrets.ts) is the short list the
 * surface tests push through every path; this one is for the corpus tests.
 */
import { providerSecrets } from './secret-corpus-providers';
import { type CorpusSecret, generated, join } from './secret-corpus-values';

export { type CorpusSecret, generated, type SecretClass } from './secret-corpus-values';

const r = (unit: string, times: number) => unit.repeat(times);

function privateKeys(): CorpusSecret[] {
  const body = r(`${r(join('MIIEvQIBADAN', 'BgkqhkiG9w0B'), 3)}\n`, 3);
  const first = body.split('\n')[0]!;
  const pem = (label: string) =>
    `${join('-----BEGIN ', label, ' PRIVATE', ' KEY-----')}\n${body}${join('-----END ', label, ' PRIVATE', ' KEY-----')}`;
  const escaped = body.replace(/\n/g, '\\n');
  const putty = generated('putty-line', 64, 'b64');
  return [
    { class: 'private-key', kind: 'private-key', value: first, line: pem('RSA') },
    { class: 'private-key', kind: 'private-key', value: first, line: pem('OPENSSH') },
    { class: 'private-key', kind: 'private-key', value: first, line: pem('EC') },
    {
      class: 'private-key',
      kind: 'private-key',
      value: first,
      line: `${join('-----BEGIN PGP ', 'PRIVATE KEY', ' BLOCK-----')}\n\n${body}`,
    },
    {
      class: 'private-key',
      kind: 'private-key',
      value: first,
      line: `{"type": "service_account", "private_key": "${join('-----BEGIN ', 'PRIVATE', ' KEY-----')}\\n${escaped}${join('-----END ', 'PRIVATE', ' KEY-----')}\\n"}`,
    },
    {
      class: 'private-key',
      kind: 'private-key',
      value: putty,
      line: `PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 2\n${putty}\n${putty.slice(0, 20)}\nPrivate-MAC: 00`,
    },
  ];
}

/** A generated value (seed, and length when not 24), or literal pieces joined. */
type NamedValue = string | readonly [seed: string, length: number] | readonly string[];

/** Named values: what the entry is, its value, and a line carrying it (`{}` marks the value). */
const NAMED_VALUE_ROWS: readonly (readonly [note: string, value: NamedValue, line: string])[] = [
  ['smtp pass', 'smtp', 'SMTP_PASS={}'],
  ['admin pw', 'admin', 'export ADMIN_PW={}'],
  ['a password starting with $', ['$uper', 'Secret', '#42'], 'DB_PASSWORD={}'],
  ['a password holding , ; & )', ['ab,cd;', 'ef&gh)', 'ij'], 'DB_PASSWORD={}'],
  ['a plain-word password', ['correct', 'horse', 'battery'], 'MYSQL_ROOT_PASSWORD={}'],
  ['pgpassword before a command', 'pgpw', 'PGPASSWORD={} psql -h db app'],
  ['yaml', 'yaml', 'database:\n  password: {}\n  port: 5432'],
  ['json', 'json', '{"client_secret": "{}", "name": "cairn"}'],
  ['escaped json', 'esc', '{\\"api_token\\":\\"{}\\",\\"n\\":1}'],
  ['php array', 'php', "'db_password' => '{}',"],
  ['makefile', 'make', 'DEPLOY_TOKEN := {}'],
  ['dockerfile env', 'docker', 'ENV REGISTRY_PASSWORD {}'],
  ['windows set', 'setx', 'setx API_SECRET {}'],
  ['space-separated aws', ['aws-sec', 40], 'aws configure set aws_secret_access_key {}'],
  ['aws credentials file', ['aws-file', 40], '[default]\naws_secret_access_key = {}'],
  ['npmrc auth', 'npmrc', '//npm.example.com/:_auth={}'],
  ['pypirc', 'pypirc', '[pypi]\nusername = __token__\npassword = {}'],
  ['docker config auth', 'dcfg', '{"auths": {"ghcr.io": {"auth": "{}"}}}'],
  [
    'azure account key',
    ['azure', 44],
    'AccountName=acct;AccountKey={}==;EndpointSuffix=core.windows.net',
  ],
  ['ado connection string', 'ado', 'Server=db;User Id=sa;Pwd={};Database=app'],
  ['xml element', 'xml', '<server><id>repo</id><password>{}</password></server>'],
  ['plist', 'plist', '<key>API_KEY</key>\n<string>{}</string>'],
  ['nuget config', 'nuget', '<add key="ClearTextPassword" value="{}" />'],
  ['setter call', 'call', 'client.setApiKey("{}");'],
  ['x-api-key header', 'xapi', '-H "X-Api-Key: {}"'],
  ['gitlab private-token header', 'ptok', 'PRIVATE-TOKEN: {}'],
  ['query token', 'query', 'https://api.example.com/v1/items?page=2&access_token={}&limit=5'],
  [
    'azure sas signature',
    ['sas', 43],
    'https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig={}%3D&se=2030',
  ],
  [
    'presigned s3 url',
    ['s3sig', 64],
    'https://b.s3.amazonaws.com/k?X-Amz-Expires=60&X-Amz-Signature={}',
  ],
  ['k8s secret data', ['k8s', 32], 'kind: Secret\ndata:\n  db-password: {}'],
  ['session secret', 'sess', 'SESSION_SECRET="{}"'],
  ['signing key', 'sign', 'JWT_SIGNING_KEY={}'],
];

function namedValue(value: NamedValue): string {
  if (typeof value === 'string') return generated(value, 24, 'b62');
  const [seed, length] = value;
  return typeof length === 'number'
    ? generated(seed!, length, 'b62')
    : join(...(value as readonly string[]));
}

function namedValues(): CorpusSecret[] {
  return NAMED_VALUE_ROWS.map(([note, spec, line]): CorpusSecret => {
    const value = namedValue(spec);
    return {
      class: 'named-value',
      kind: 'assignment',
      value,
      line: line.replace('{}', () => value),
      note,
    };
  });
}

function flags(): CorpusSecret[] {
  const g = (seed: string) => generated(seed, 20, 'b62');
  const rows: [string, string, string][] = [
    ['psql --password=', g('psql'), `psql --password=${g('psql')} -h db app`],
    ['--token=', g('tok'), `gh release upload --token=${g('tok')} v1 dist.tgz`],
    ['--api-key=', g('apikey'), `tool --api-key=${g('apikey')} run`],
    ['--apikey value', g('apikey2'), `tool --apikey ${g('apikey2')} run`],
    ['--client-secret "value"', g('cs'), `az login --client-secret "${g('cs')}" --tenant t`],
    ['--auth-token value', g('at'), `npx expo publish --auth-token ${g('at')}`],
    ['--access-key value', g('ak'), `minio-client --access-key ${g('ak')} ls`],
    ['keytool -storepass', g('ks'), `keytool -list -keystore app.jks -storepass ${g('ks')}`],
    ['--secret=', g('sec'), `vault write --secret=${g('sec')} x`],
  ];
  const password = join('pa55', 'w0rd', '-', generated('curl', 8, 'b62'));
  const mysql = join('My', 'Sql', generated('mysql', 10, 'b62'));
  return [
    ...rows.map(([note, value, line]) => ({
      class: 'flag' as const,
      kind: 'cli-flag',
      value,
      line,
      note,
    })),
    {
      class: 'flag',
      kind: 'cli-flag',
      value: password,
      line: `curl -u deploy:${password} https://api.example.com`,
    },
    {
      class: 'flag',
      kind: 'cli-flag',
      value: `${password}x`,
      line: `curl --user 'ci:${password}x' https://x.example.com`,
    },
    {
      class: 'flag',
      kind: 'cli-flag',
      value: mysql,
      line: `mysql -u root -p${mysql} app < dump.sql`,
    },
    {
      class: 'flag',
      kind: 'cli-flag',
      value: `${mysql}ssh`,
      line: `sshpass -p ${mysql}ssh ssh deploy@host`,
    },
    {
      class: 'flag',
      kind: 'cli-flag',
      value: `${mysql}reg`,
      line: `docker login -u ci -p ${mysql}reg registry.example.com`,
    },
  ];
}

function httpAuth(): CorpusSecret[] {
  const basic = Buffer.from(join('deploy:', generated('basic', 16, 'b62'))).toString('base64');
  const token = generated('token-scheme', 40, 'hex');
  const cookie = generated('cookie', 32, 'b62');
  return [
    { class: 'http-auth', kind: 'http-auth', value: basic, line: `Authorization: Basic ${basic}` },
    {
      class: 'http-auth',
      kind: 'http-auth',
      value: token,
      line: `curl -H 'Authorization: Token ${token}' https://x`,
    },
    {
      class: 'http-auth',
      kind: 'http-auth',
      value: `${token}0`,
      line: `"authorization": "ApiKey ${token}0"`,
    },
    {
      class: 'http-auth',
      kind: 'http-auth',
      value: `${basic}A`,
      line: `> proxy-authorization: basic ${basic}A`,
    },
    {
      class: 'http-auth',
      kind: 'http-auth',
      value: cookie,
      line: `Cookie: sessionid=${cookie}; csrftoken=abc`,
    },
    {
      class: 'http-auth',
      kind: 'http-auth',
      value: `${cookie}Z`,
      line: `< Set-Cookie: connect.sid=${cookie}Z; Path=/; HttpOnly`,
    },
    {
      class: 'http-auth',
      kind: 'http-auth',
      value: 'sh0rtT0k',
      line: 'Authorization: Bearer sh0rtT0k',
    },
  ];
}

function connectionStrings(): CorpusSecret[] {
  const pw = (seed: string) => generated(seed, 14, 'b62');
  const rows: [string, string][] = [
    [join(pw('pg'), '/x'), `DATABASE_URL=postgres://app:${pw('pg')}/x@db.internal:5432/app`],
    [join(pw('at'), '@', pw('at2')), `mysql://root:${pw('at')}@${pw('at2')}@mysql:3306/app`],
    [join(pw('colon'), ':z'), `amqp://guest:${pw('colon')}:z@rabbit/vhost`],
    [pw('redis'), `REDIS_URL=redis://:${pw('redis')}@cache:6379/0`],
    [pw('mongo'), `mongodb+srv://svc:${pw('mongo')}@cluster0.example.net/db?retryWrites=true`],
    [pw('jdbc'), `jdbc:postgresql://db:5432/app?user=svc&password=${pw('jdbc')}&ssl=true`],
    [pw('git'), `git remote add origin https://oauth2:${pw('git')}@gitlab.example.com/g/p.git`],
    [
      generated('sentry', 32, 'hex'),
      `SENTRY_DSN=https://${generated('sentry', 32, 'hex')}@o4504.ingest.sentry.io/4505`,
    ],
  ];
  return rows.map(([value, line]) => ({
    class: 'connection-string',
    // A password in a query string is a named value (`password=`), the rest are URL userinfo.
    kind: line.includes('password=') ? 'assignment' : 'connection-string',
    value,
    line,
  }));
}

function credentialFiles(): CorpusSecret[] {
  const a = generated('netrc', 18, 'b62');
  const b = generated('netrc2', 18, 'b62');
  const c = generated('pgpass', 18, 'b62');
  return [
    {
      class: 'credential-file',
      kind: 'credential-file',
      value: a,
      line: `machine api.example.com login deploy password ${a}`,
    },
    {
      class: 'credential-file',
      kind: 'credential-file',
      value: b,
      line: `machine git.example.com\n  login ci\n  password ${b}\n`,
    },
    {
      class: 'credential-file',
      kind: 'credential-file',
      value: c,
      line: `db.internal:5432:app:svc:${c}`,
    },
  ];
}

/** Every fake secret, by class, fresh each call. */
export function secretCorpus(): CorpusSecret[] {
  return [
    ...privateKeys(),
    ...providerSecrets(),
    ...namedValues(),
    ...flags(),
    ...httpAuth(),
    ...connectionStrings(),
    ...credentialFiles(),
  ];
}

/** The values of the corpus found in a text (empty when it is clean). */
export function leakedCorpusSecrets(text: string): string[] {
  return secretCorpus()
    .map((secret) => secret.value)
    .filter((value) => text.includes(value));
}
