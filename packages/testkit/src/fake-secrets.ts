/**
 * A corpus of fake credentials, one per format Cairn redacts, for tests that
 * push secrets through an outgoing path (injection, summarizer, embedder,
 * remote stores) and check that none comes out. Every value is assembled at
 * run time from harmless pieces, so no credential-shaped literal sits in the
 * source for a push-protection scanner to flag; none is a real key.
 */
import { generated } from './secret-corpus-values';

export interface FakeSecret {
  /** The kind `redactSecrets` reports for it. */
  kind: string;
  /** The secret itself: it must never appear in redacted text. */
  value: string;
  /** A line as a prompt, a tool output or a unit would carry it. */
  line: string;
}

const r = (unit: string, times: number) => unit.repeat(times);
const join = (...parts: string[]) => parts.join('');

/** One of each class added later (flags, auth headers, credential files, newer prefixes). */
function laterClasses(): FakeSecret[] {
  const xapp = join(
    'xapp-1-A0',
    generated('f-xapp', 9, 'upper'),
    '-',
    generated('f-xapp2', 40, 'hex'),
  );
  const pypi = join('pypi-AgEIcHlwaS5vcmc', generated('f-pypi', 60, 'b62'));
  const flag = generated('f-flag', 18, 'b62');
  const basic = Buffer.from(join('ci:', generated('f-basic', 14, 'b62'))).toString('base64');
  const netrc = generated('f-netrc', 18, 'b62');
  const dollar = join('$uper', generated('f-dollar', 12, 'b62'));
  const slashed = join(generated('f-url', 10, 'b62'), '/', generated('f-url2', 6, 'b62'));
  return [
    { kind: 'slack-token', value: xapp, line: `SLACK_APP_TOKEN=${xapp}` },
    { kind: 'pypi-token', value: pypi, line: `twine upload -u __token__ -p ${pypi} dist/*` },
    { kind: 'cli-flag', value: flag, line: `psql --password=${flag} -h db app` },
    { kind: 'http-auth', value: basic, line: `curl -H 'Authorization: Basic ${basic}' https://x` },
    {
      kind: 'credential-file',
      value: netrc,
      line: `machine api.example.com login ci password ${netrc}`,
    },
    { kind: 'assignment', value: dollar, line: `ADMIN_PW=${dollar}` },
    { kind: 'connection-string', value: slashed, line: `mysql://root:${slashed}@db:3306/app` },
  ];
}

function corpus(): FakeSecret[] {
  const aws = join('AK', 'IA', r('IOSFODNN', 2));
  const github = join('gh', 'p_', r('A1b2C3', 6));
  const githubPat = join('github', '_pat_', r('11AbCdEf', 4));
  const openai = join('sk', '-proj-', r('Ab3dEf9h', 6));
  const anthropic = join('sk', '-ant-api03-', r('xY7_zW8-', 12));
  const slack = join('xo', 'xb-', r('1234567890', 2), '-', r('AbCd', 6));
  const stripe = join('sk', '_live_', r('4eC39HqLyjWD', 3));
  const google = join('AI', 'za', r('SyD-9tSrke7', 3), 'AB');
  const jwt = join(
    'ey',
    'J',
    r('hbGciOiJIUzI1', 2),
    '.ey',
    'J',
    r('zdWIiOiIxMjM0', 3),
    '.',
    r('SflKxwRJSMeKKF2QT4', 2),
  );
  const keyBody = r(`${r('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 2)}\n`, 3);
  const pemBegin = join('-----BEGIN ', 'RSA PRIVATE', ' KEY-----');
  const pemEnd = join('-----END ', 'RSA PRIVATE', ' KEY-----');
  const dbPassword = join('s3cr3t', '-pw-', 'quokka');
  const envPassword = join('correct', '-horse-', 'battery');
  const jsonSecret = join('a8f9e7', 'd6c5b4', 'zz');
  return [
    { kind: 'aws-access-key', value: aws, line: `AWS_ACCESS_KEY_ID=${aws}` },
    { kind: 'github-token', value: github, line: `push with ${github} please` },
    { kind: 'github-token', value: githubPat, line: `token ${githubPat}` },
    { kind: 'openai-key', value: openai, line: `OPENAI_API_KEY="${openai}"` },
    { kind: 'anthropic-key', value: anthropic, line: `export ANTHROPIC_API_KEY=${anthropic}` },
    { kind: 'slack-token', value: slack, line: `slack bot ${slack}` },
    { kind: 'stripe-key', value: stripe, line: `Stripe.api_key = '${stripe}'` },
    { kind: 'google-api-key', value: google, line: `maps key ${google}` },
    { kind: 'jwt', value: jwt, line: `cookie session=${jwt}; Path=/` },
    {
      kind: 'private-key',
      value: keyBody.split('\n')[0]!,
      line: `${pemBegin}\n${keyBody}${pemEnd}`,
    },
    {
      kind: 'connection-string',
      value: dbPassword,
      line: `DATABASE_URL=postgres://app:${dbPassword}@db:5432/app`,
    },
    { kind: 'assignment', value: envPassword, line: `DB_PASSWORD=${envPassword}` },
    { kind: 'assignment', value: jsonSecret, line: `{"client_secret": "${jsonSecret}"}` },
    ...laterClasses(),
  ];
}

/** The corpus, fresh each call (tests may mutate their copy). */
export function fakeSecrets(): FakeSecret[] {
  return corpus();
}

/** Every line of the corpus, one text: a tool output that leaked all of them at once. */
export function fakeSecretDump(): string {
  return corpus()
    .map((secret) => secret.line)
    .join('\n');
}

/** The fake secret values found in a text (empty when it is clean). */
export function leakedFakeSecrets(text: string): string[] {
  return corpus()
    .map((secret) => secret.value)
    .filter((value) => text.includes(value));
}
