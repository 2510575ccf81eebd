import { describe, expect, it } from 'vitest';
import { redactSecrets, redactStrings, secretKinds } from './redact-secrets';
import { isSecretName } from './secret-names';
import { patternSources } from './secret-patterns';

// Fake secrets, assembled at run time so no credential-shaped literal sits in the source.
const r = (unit: string, times: number) => unit.repeat(times);
const FAKE = {
  aws: `AKIA${r('IOSFODNN', 2)}`,
  github: `ghp_${r('A1b2C3', 6)}`,
  githubPat: `github_pat_${r('11AbCdEf', 4)}`,
  openai: `sk-proj-${r('Ab3dEf9h', 6)}`,
  openaiLegacy: `sk-${r('T3BlbkFJ', 6)}`,
  anthropic: `sk-ant-api03-${r('xY7_zW8-', 12)}`,
  slack: `xoxb-${r('1234567890', 2)}-${r('AbCd', 6)}`,
  jwt: `eyJ${r('hbGciOiJIUzI1', 2)}.eyJ${r('zdWIiOiIxMjM0', 3)}.${r('SflKxwRJSMeKKF2QT4', 2)}`,
  google: `AIza${r('SyD-9tSrke7', 3)}AB`,
  stripe: `sk_live_${r('4eC39HqLyjWD', 3)}`,
  npm: `npm_${r('aB3dE', 7)}Z`,
  keyBody: r(`${r('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 2)}\n`, 4),
};

/** Prompts, tool outputs and units that carry a secret, with the kinds expected. */
const SECRETS: [string, string, string[]][] = [
  ['aws in env output', `AWS_ACCESS_KEY_ID=${FAKE.aws}`, ['aws-access-key']],
  ['github token in a prompt', `use ${FAKE.github} to push`, ['github-token']],
  ['fine-grained github pat', `token ${FAKE.githubPat}`, ['github-token']],
  ['openai project key', `OPENAI_API_KEY="${FAKE.openai}"`, ['openai-key']],
  ['openai legacy key', `curl -u ${FAKE.openaiLegacy}`, ['openai-key']],
  ['anthropic key', `export ANTHROPIC_API_KEY=${FAKE.anthropic}`, ['anthropic-key']],
  ['slack bot token', `SLACK=${FAKE.slack}`, ['slack-token']],
  ['jwt in a log', `cookie session=${FAKE.jwt}; Path=/`, ['jwt']],
  ['google api key', `key=${FAKE.google}`, ['google-api-key']],
  ['stripe live key', `Stripe::api_key = '${FAKE.stripe}'`, ['stripe-key']],
  ['npm token in .npmrc', `//registry.npmjs.org/:_authToken=${FAKE.npm}`, ['npm-token']],
  ['bearer header', `Authorization: Bearer ${r('abc123XYZ.', 4)}`, ['bearer-token']],
  ['postgres url', 'DATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app', ['connection-string']],
  ['redis url, no user', 'redis://:hunter2hunter2@cache:6379/0', ['connection-string']],
  [
    'private key block',
    `-----BEGIN RSA PRIVATE KEY-----\n${FAKE.keyBody}-----END RSA PRIVATE KEY-----\nafter`,
    ['private-key'],
  ],
  [
    'truncated private key',
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${FAKE.keyBody}`,
    ['private-key'],
  ],
  ['password assignment', 'DB_PASSWORD=correct-horse-battery', ['assignment']],
  ['json secret', '{"client_secret": "a8f9e7d6c5b4", "name": "cairn"}', ['assignment']],
  ['yaml token', 'deploy:\n  apiToken: 9f8e7d6c5b4a', ['assignment']],
  ['camelCase key', 'const secretKey = "Zm9vYmFyYmF6cXV4"', ['assignment']],
  ['assignment inside a value', 'note: DB_PASSWORD=correct-horse-battery', ['assignment']],
  ['yaml env line', 'env: "GITHUB_TOKEN=correct-horse-battery"', ['assignment']],
];

/** Things that look a little like secrets and must stay. */
const NEAR_MISSES = [
  'commit e723a44b5c0d9f1e2a3b4c5d6e7f8a9b0c1d2e3f fixed it',
  'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'id 550e8400-e29b-41d4-a716-446655440000',
  'the token budget is 2000 and the password reset flow works',
  'MAX_TOKENS=2000',
  'monkey=banana keyboard=us author=alice',
  'KEY_COUNT: 12',
  `api_key=${'$'}{OPENAI_API_KEY}`,
  'password: <your password>',
  'GITHUB_TOKEN=process.env.GITHUB_TOKEN',
  'pip install scikit-learn; use sk-learn-style pipelines',
  'AKIAshort and ghp_tooshort',
  'https://example.com:8080/users/@alice',
  'eyJhbGciOiJIUzI1NiJ9 is only a header',
  'task-1234567890abcdefghijklmnopqrstuvwxyz',
];

describe('redactSecrets', () => {
  it.each(SECRETS)('redacts %s', (_, text, kinds) => {
    const result = redactSecrets(text);
    expect(result.found.map((f) => f.kind)).toEqual(kinds);
    expect(result.redacted).toBe(true);
    for (const value of Object.values(FAKE)) expect(result.text).not.toContain(value.trim());
    for (const secret of ['s3cr3t-pw', 'hunter2hunter2', 'correct-horse', 'a8f9e7d6c5b4']) {
      expect(result.text).not.toContain(secret);
    }
    expect(result.text).toContain(`[REDACTED:${kinds[0]}]`);
  });

  it.each(NEAR_MISSES)('keeps %s', (text) => {
    expect(redactSecrets(text)).toEqual({ text, found: [], redacted: false });
  });

  it('keeps the readable rest: scheme, user and host of a URL, the name of a setting', () => {
    expect(redactSecrets('postgres://app:s3cr3t-pw@db:5432/app').text).toBe(
      'postgres://app:[REDACTED:connection-string]@db:5432/app',
    );
    expect(redactSecrets('DB_PASSWORD="abc12345" PORT=5432').text).toBe(
      'DB_PASSWORD="[REDACTED:assignment]" PORT=5432',
    );
    expect(redactSecrets(`Authorization: Bearer ${r('abc123XYZ.', 4)}`).text).toBe(
      'Authorization: Bearer [REDACTED:bearer-token]',
    );
  });

  it('counts every secret of a tool output once, by kind', () => {
    const output = [
      `GITHUB_TOKEN=${FAKE.github}`,
      `second ${FAKE.github.replace('A1', 'Z9')}`,
      `AWS=${FAKE.aws}`,
    ].join('\n');
    expect(redactSecrets(output).found).toEqual([
      { kind: 'aws-access-key', count: 1 },
      { kind: 'github-token', count: 2 },
    ]);
  });

  it('reads setting names by their words', () => {
    expect(
      ['GITHUB_TOKEN', 'db.password', 'apiKey', 'client-secret', 'private_key'].map(isSecretName),
    ).toEqual([true, true, true, true, true]);
    expect(['MAX_TOKENS', 'monkey', 'keyboard', 'author', 'KEY_ID'].map(isSecretName)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('sees through invisible characters that split a token, and keeps escaped markers', () => {
    const split = `${FAKE.github.slice(0, 10)}\u200B${FAKE.github.slice(10, 20)}\u2060\uFEFF${FAKE.github.slice(20)}`;
    const result = redactSecrets(`push with ${split} now`);
    expect(result.text).toBe('push with [REDACTED:github-token] now');
    const escaped = '<!-- cairn\u200B:head:start --> and a ghp_\u200Bshort one';
    expect(redactSecrets(escaped)).toEqual({ text: escaped, found: [], redacted: false });
    expect(redactSecrets(`${FAKE.aws} <!-- cairn\u200B:x -->`).text).toBe(
      '[REDACTED:aws-access-key] <!-- cairn\u200B:x -->',
    );
  });

  it('gives the kinds of a text and redacts every string of a request payload', () => {
    expect(secretKinds(`a ${FAKE.aws} b ${FAKE.github}`)).toEqual([
      'aws-access-key',
      'github-token',
    ]);
    expect(secretKinds('nothing here')).toEqual([]);
    const payload = {
      model: 'gpt-4o-mini',
      n: 2,
      stream: false,
      messages: [{ role: 'user', content: `key ${FAKE.openai}` }],
      input: [`x ${FAKE.stripe}`, 'plain', null],
    };
    const { value, found } = redactStrings(payload);
    expect(value).toEqual({
      model: 'gpt-4o-mini',
      n: 2,
      stream: false,
      messages: [{ role: 'user', content: 'key [REDACTED:openai-key]' }],
      input: ['x [REDACTED:stripe-key]', 'plain', null],
    });
    expect(found).toEqual([
      { kind: 'openai-key', count: 1 },
      { kind: 'stripe-key', count: 1 },
    ]);
  });

  it('stays linear on long adversarial inputs', () => {
    const size = 200_000;
    const inputs = [
      'a.'.repeat(size / 2),
      `${'a'.repeat(size)}=`,
      'sk-'.repeat(size / 3),
      'eyJ'.repeat(size / 3),
      'eyJaaaaaaaaaa.'.repeat(size / 14),
      'x://'.repeat(size / 4),
      'a://b:'.repeat(size / 6),
      '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(size / 32),
      'password='.repeat(size / 9),
      'a='.repeat(size / 2),
      'ab: '.repeat(size / 4),
      `x=${'b'.repeat(499)} `.repeat(size / 502),
      'Bearer '.repeat(size / 7),
      `"${'k'.repeat(size)}`,
      `a${'\u200B'.repeat(size)}`,
      'a\u200B'.repeat(size / 2),
    ];
    for (const text of inputs) expect(typeof redactSecrets(text).text).toBe('string');
  });

  it('bounds every pattern: no unbounded repetition anywhere', () => {
    for (const source of patternSources()) {
      // Drop escapes and character classes, then look for `*`, `+` or `{n,}`.
      const shape = source.replace(/\\./g, '').replace(/\[[^\]]*\]/g, 'C');
      expect(shape, source).not.toMatch(/[*+]|\{\d+,\}/);
      for (const [, max] of shape.matchAll(/\{\d+,(\d+)\}/g)) {
        expect(Number(max)).toBeLessThanOrEqual(8000);
      }
    }
  });
});
