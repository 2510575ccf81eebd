import { type CorpusSecret, generated, join } from './secret-corpus-values';

/** How an issuer writes a token body: its alphabet, generated per entry. */
type Body = 'b62' | 'hex' | 'up' | 'url' | 'digits';
/** A literal piece of a token, or a generated body of one alphabet and length. */
type Piece = string | readonly [body: Body, length: number];

/**
 * One issuer's token: the kind `redactSecrets` reports, the pieces the
 * value is joined from (literals are split so no credential-shaped string
 * sits in the source), and a line that carries it (`{}` marks the value).
 */
type ProviderRow = readonly [kind: string, pieces: readonly Piece[], line: string];

const PROVIDER_ROWS: readonly ProviderRow[] = [
  ['aws-access-key', ['AK', 'IA', ['up', 16]], 'aws sts get-caller-identity # key {}'],
  ['slack-token', ['xapp-1-A0', ['up', 9], '-', ['digits', 13], '-', ['hex', 64]], 'SLACK_APP={}'],
  ['slack-token', ['xoxb-', ['digits', 11], '-', ['digits', 12], '-', ['b62', 24]], 'bot {}'],
  [
    'slack-token',
    ['xoxp-', ['digits', 11], '-', ['digits', 12], '-', ['b62', 32]],
    'user token: {}',
  ],
  ['pypi-token', ['pypi-AgEIcHlwaS5vcmc', ['url', 70]], 'twine upload -p {} dist/*'],
  ['sendgrid-key', ['SG.', ['url', 22], '.', ['url', 43]], 'sendgrid key {}'],
  ['docker-token', ['dckr_pat_', ['url', 27]], 'echo {} | docker login -u ci --password-stdin'],
  ['gitlab-token', ['glrt-', ['url', 20]], 'gitlab-runner register --token {}'],
  ['gitlab-token', ['glpat-', ['url', 20]], 'glab auth login -t {}'],
  ['gitlab-token', ['glptt-', ['hex', 40]], 'trigger {}'],
  ['gitlab-token', ['gldt-', ['url', 20]], 'deploy token {}'],
  ['gitlab-token', ['glsoat-', ['url', 20]], 'scim {}'],
  ['google-oauth-token', ['ya29.', ['url', 100]], 'access_token ya {}'],
  ['google-oauth-token', ['1//0', ['url', 60]], '"refresh": "{}"'],
  ['google-client-secret', ['GOCSPX-', ['url', 28]], 'oauth client {}'],
  ['google-api-key', ['AI', 'za', ['url', 35]], 'maps key {}'],
  ['github-token', ['gh', 'p_', ['b62', 36]], 'push with {} please'],
  ['github-token', ['github', '_pat_', ['b62', 22], '_', ['b62', 59]], 'token {}'],
  ['npm-token', ['np', 'm_', ['b62', 36]], '//registry.npmjs.org/:_authToken={}'],
  ['huggingface-token', ['hf', '_', ['b62', 34]], 'huggingface-cli login --token {}'],
  ['stripe-key', ['sk', '_live_', ['b62', 24]], "Stripe.api_key = '{}'"],
  ['stripe-key', ['rk', '_live_', ['b62', 24]], 'restricted {}'],
  ['stripe-key', ['wh', 'sec_', ['b62', 32]], 'webhook {}'],
  ['openai-key', ['sk', '-proj-', ['b62', 48]], 'OPENAI_API_KEY="{}"'],
  ['anthropic-key', ['sk', '-ant-api03-', ['url', 93], 'AA'], 'export ANTHROPIC_API_KEY={}'],
  ['digitalocean-token', ['dop', '_v1_', ['hex', 64]], 'doctl auth init -t {}'],
  ['heroku-api-key', ['HRKU-AA', ['url', 58]], 'heroku {}'],
  ['twilio-key', ['SK', ['hex', 32]], 'twilio api key {}'],
  ['twilio-account', ['AC', ['hex', 32]], 'account {}'],
  ['shopify-token', ['sh', 'pat_', ['hex', 32]], 'X-Shopify-Access-Token {}'],
  ['linear-key', ['lin', '_api_', ['b62', 40]], 'linear {}'],
  ['atlassian-token', ['ATATT3xFfGF0', ['url', 180]], 'jira {}'],
  ['discord-token', ['M', ['b62', 23], '.', ['url', 6], '.', ['url', 27]], 'discord bot {}'],
  [
    'discord-webhook',
    ['https://discord.com/api/webhooks/', ['digits', 18], '/', ['url', 68]],
    'post to {}',
  ],
  [
    'telegram-bot-token',
    [['digits', 10], ':AA', ['url', 33]],
    'https://api.telegram.org/bot{}/getMe',
  ],
  ['mailgun-key', ['key-', ['hex', 32]], 'mailgun {}'],
  ['square-token', ['sq0atp-', ['url', 22]], 'square {}'],
  ['square-token', ['EAAA', ['url', 60]], 'square prod {}'],
  ['postman-key', ['PMAK-', ['hex', 24], '-', ['hex', 34]], 'postman {}'],
  ['doppler-token', ['dp.pt.', ['b62', 43]], 'doppler {}'],
  ['vault-token', ['hvs.', ['url', 90]], 'vault login {}'],
  ['databricks-token', ['dapi', ['hex', 32]], 'databricks {}'],
  ['grafana-token', ['glc_', ['b62', 80]], 'grafana {}'],
  ['grafana-token', ['glsa_', ['b62', 32], '_', ['hex', 8]], 'grafana sa {}'],
  ['newrelic-key', ['NRAK-', ['up', 27]], 'newrelic {}'],
  ['circleci-token', ['CCIPAT_', ['b62', 22], '_', ['hex', 40]], 'circleci {}'],
  ['buildkite-token', ['bkua_', ['hex', 40]], 'buildkite {}'],
  ['netlify-token', ['nfp_', ['b62', 36]], 'netlify {}'],
  ['vercel-token', ['vcp_', ['b62', 24]], 'vercel {}'],
  ['cloudflare-token', ['cfut_', ['b62', 40], ['hex', 8]], 'cloudflare {}'],
  ['supabase-token', ['sbp_', ['hex', 40]], 'supabase {}'],
  ['firebase-key', ['AAAA', ['url', 7], ':APA91b', ['url', 134]], 'fcm server key {}'],
  ['private-key', ['AGE-SECRET', '-KEY-1', ['up', 58]], '# age key\n{}'],
  ['azure-client-secret', [['b62', 3], '8Q~', ['b62', 34]], 'entra app secret {}'],
  ['mailchimp-key', [['hex', 32], '-us21'], 'mailchimp {}'],
  ['alibaba-access-key', ['LTAI', ['b62', 20]], 'aliyun {}'],
  ['groq-key', ['gsk_', ['b62', 52]], 'groq {}'],
  ['perplexity-key', ['pplx-', ['b62', 48]], 'pplx {}'],
  ['tailscale-key', ['tskey-auth-', ['b62', 12], '-', ['b62', 30]], 'tailscale up --authkey={}'],
  ['figma-token', ['figd_', ['url', 40]], 'figma {}'],
  ['sentry-token', ['sntryu_', ['hex', 64]], 'sentry {}'],
  ['planetscale-token', ['pscale_tkn_', ['url', 43]], 'pscale {}'],
  ['openshift-token', ['sha256~', ['url', 43]], 'oc login --token={}'],
  [
    'slack-webhook',
    ['https://hooks.slack.com/services/T', ['up', 8], '/B', ['up', 10], '/', ['b62', 24]],
    'notify {}',
  ],
  ['token', ['acme_live_', ['b62', 40]], 'the acme client uses {} now'],
  ['jwt', ['ey', 'J', ['url', 36], '.ey', 'J', ['url', 60], '.', ['url', 43]], 'cookie value {}'],
];

/** A body's characters: url-safe bodies trade `Q`/`q` for `-`, digit bodies hex letters for `7`. */
function body(seed: string, kind: Body, length: number): string {
  switch (kind) {
    case 'b62':
    case 'hex':
      return generated(seed, length, kind);
    case 'up':
      return generated(seed, length, 'upper');
    case 'url':
      return generated(seed, length, 'b62').replace(/[Qq]/g, '-');
    case 'digits':
      return generated(seed, length, 'hex').replace(/[a-f]/g, '7');
  }
}

/**
 * Tokens that carry their issuer's prefix: clouds, code hosts and package
 * registries, CI, chat and mail services, payments, model providers, and
 * one issuer nobody listed (`acme_live_…`). Bodies are generated per
 * entry, in each issuer's alphabet and length, seeded by their order in
 * the table (`p0`, `p1`, …).
 */
export function providerSecrets(): CorpusSecret[] {
  let n = 0;
  return PROVIDER_ROWS.map(([kind, pieces, line]): CorpusSecret => {
    const value = join(
      ...pieces.map((piece) =>
        typeof piece === 'string' ? piece : body(`p${n++}`, piece[0], piece[1]),
      ),
    );
    return { class: 'provider', kind, value, line: line.replace('{}', () => value) };
  });
}
