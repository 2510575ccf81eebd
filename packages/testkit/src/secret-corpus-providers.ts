import { type CorpusSecret, generated, join } from './secret-corpus-values';

/**
 * Tokens that carry their issuer's prefix: clouds, code hosts and package
 * registries, CI, chat and mail services, payments, model providers, and
 * one issuer nobody listed (`acme_live_…`). Bodies are generated per
 * entry, in each issuer's alphabet and length.
 */
export function providerSecrets(): CorpusSecret[] {
  let n = 0;
  const b62 = (len: number) => generated(`p${n++}`, len, 'b62');
  const hex = (len: number) => generated(`p${n++}`, len, 'hex');
  const up = (len: number) => generated(`p${n++}`, len, 'upper');
  const url = (len: number) => generated(`p${n++}`, len, 'b62').replace(/[Qq]/g, '-');
  const digits = (len: number) => generated(`p${n++}`, len, 'hex').replace(/[a-f]/g, '7');
  const rows: [kind: string, value: string, line: (value: string) => string][] = [
    ['aws-access-key', join('AK', 'IA', up(16)), (v) => `aws sts get-caller-identity # key ${v}`],
    [
      'slack-token',
      join('xapp-1-A0', up(9), '-', digits(13), '-', hex(64)),
      (v) => `SLACK_APP=${v}`,
    ],
    ['slack-token', join('xoxb-', digits(11), '-', digits(12), '-', b62(24)), (v) => `bot ${v}`],
    [
      'slack-token',
      join('xoxp-', digits(11), '-', digits(12), '-', b62(32)),
      (v) => `user token: ${v}`,
    ],
    ['pypi-token', join('pypi-AgEIcHlwaS5vcmc', url(70)), (v) => `twine upload -p ${v} dist/*`],
    ['sendgrid-key', join('SG.', url(22), '.', url(43)), (v) => `sendgrid key ${v}`],
    [
      'docker-token',
      join('dckr_pat_', url(27)),
      (v) => `echo ${v} | docker login -u ci --password-stdin`,
    ],
    ['gitlab-token', join('glrt-', url(20)), (v) => `gitlab-runner register --token ${v}`],
    ['gitlab-token', join('glpat-', url(20)), (v) => `glab auth login -t ${v}`],
    ['gitlab-token', join('glptt-', hex(40)), (v) => `trigger ${v}`],
    ['gitlab-token', join('gldt-', url(20)), (v) => `deploy token ${v}`],
    ['gitlab-token', join('glsoat-', url(20)), (v) => `scim ${v}`],
    ['google-oauth-token', join('ya29.', url(100)), (v) => `access_token ya ${v}`],
    ['google-oauth-token', join('1//0', url(60)), (v) => `"refresh": "${v}"`],
    ['google-client-secret', join('GOCSPX-', url(28)), (v) => `oauth client ${v}`],
    ['google-api-key', join('AI', 'za', url(35)), (v) => `maps key ${v}`],
    ['github-token', join('gh', 'p_', b62(36)), (v) => `push with ${v} please`],
    ['github-token', join('github', '_pat_', b62(22), '_', b62(59)), (v) => `token ${v}`],
    ['npm-token', join('np', 'm_', b62(36)), (v) => `//registry.npmjs.org/:_authToken=${v}`],
    ['huggingface-token', join('hf', '_', b62(34)), (v) => `huggingface-cli login --token ${v}`],
    ['stripe-key', join('sk', '_live_', b62(24)), (v) => `Stripe.api_key = '${v}'`],
    ['stripe-key', join('rk', '_live_', b62(24)), (v) => `restricted ${v}`],
    ['stripe-key', join('wh', 'sec_', b62(32)), (v) => `webhook ${v}`],
    ['openai-key', join('sk', '-proj-', b62(48)), (v) => `OPENAI_API_KEY="${v}"`],
    [
      'anthropic-key',
      join('sk', '-ant-api03-', url(93), 'AA'),
      (v) => `export ANTHROPIC_API_KEY=${v}`,
    ],
    ['digitalocean-token', join('dop', '_v1_', hex(64)), (v) => `doctl auth init -t ${v}`],
    ['heroku-api-key', join('HRKU-AA', url(58)), (v) => `heroku ${v}`],
    ['twilio-key', join('SK', hex(32)), (v) => `twilio api key ${v}`],
    ['twilio-account', join('AC', hex(32)), (v) => `account ${v}`],
    ['shopify-token', join('sh', 'pat_', hex(32)), (v) => `X-Shopify-Access-Token ${v}`],
    ['linear-key', join('lin', '_api_', b62(40)), (v) => `linear ${v}`],
    ['atlassian-token', join('ATATT3xFfGF0', url(180)), (v) => `jira ${v}`],
    ['discord-token', join('M', b62(23), '.', url(6), '.', url(27)), (v) => `discord bot ${v}`],
    [
      'discord-webhook',
      join('https://discord.com/api/webhooks/', digits(18), '/', url(68)),
      (v) => `post to ${v}`,
    ],
    [
      'telegram-bot-token',
      join(digits(10), ':AA', url(33)),
      (v) => `https://api.telegram.org/bot${v}/getMe`,
    ],
    ['mailgun-key', join('key-', hex(32)), (v) => `mailgun ${v}`],
    ['square-token', join('sq0atp-', url(22)), (v) => `square ${v}`],
    ['square-token', join('EAAA', url(60)), (v) => `square prod ${v}`],
    ['postman-key', join('PMAK-', hex(24), '-', hex(34)), (v) => `postman ${v}`],
    ['doppler-token', join('dp.pt.', b62(43)), (v) => `doppler ${v}`],
    ['vault-token', join('hvs.', url(90)), (v) => `vault login ${v}`],
    ['databricks-token', join('dapi', hex(32)), (v) => `databricks ${v}`],
    ['grafana-token', join('glc_', b62(80)), (v) => `grafana ${v}`],
    ['grafana-token', join('glsa_', b62(32), '_', hex(8)), (v) => `grafana sa ${v}`],
    ['newrelic-key', join('NRAK-', up(27)), (v) => `newrelic ${v}`],
    ['circleci-token', join('CCIPAT_', b62(22), '_', hex(40)), (v) => `circleci ${v}`],
    ['buildkite-token', join('bkua_', hex(40)), (v) => `buildkite ${v}`],
    ['netlify-token', join('nfp_', b62(36)), (v) => `netlify ${v}`],
    ['vercel-token', join('vcp_', b62(24)), (v) => `vercel ${v}`],
    ['cloudflare-token', join('cfut_', b62(40), hex(8)), (v) => `cloudflare ${v}`],
    ['supabase-token', join('sbp_', hex(40)), (v) => `supabase ${v}`],
    ['firebase-key', join('AAAA', url(7), ':APA91b', url(134)), (v) => `fcm server key ${v}`],
    ['private-key', join('AGE-SECRET', '-KEY-1', up(58)), (v) => `# age key\n${v}`],
    ['azure-client-secret', join(b62(3), '8Q~', b62(34)), (v) => `entra app secret ${v}`],
    ['mailchimp-key', join(hex(32), '-us21'), (v) => `mailchimp ${v}`],
    ['alibaba-access-key', join('LTAI', b62(20)), (v) => `aliyun ${v}`],
    ['groq-key', join('gsk_', b62(52)), (v) => `groq ${v}`],
    ['perplexity-key', join('pplx-', b62(48)), (v) => `pplx ${v}`],
    [
      'tailscale-key',
      join('tskey-auth-', b62(12), '-', b62(30)),
      (v) => `tailscale up --authkey=${v}`,
    ],
    ['figma-token', join('figd_', url(40)), (v) => `figma ${v}`],
    ['sentry-token', join('sntryu_', hex(64)), (v) => `sentry ${v}`],
    ['planetscale-token', join('pscale_tkn_', url(43)), (v) => `pscale ${v}`],
    ['openshift-token', join('sha256~', url(43)), (v) => `oc login --token=${v}`],
    [
      'slack-webhook',
      join('https://hooks.slack.com/services/T', up(8), '/B', up(10), '/', b62(24)),
      (v) => `notify ${v}`,
    ],
    ['token', join('acme_live_', b62(40)), (v) => `the acme client uses ${v} now`],
    [
      'jwt',
      join('ey', 'J', url(36), '.ey', 'J', url(60), '.', url(43)),
      (v) => `cookie value ${v}`,
    ],
  ];
  return rows.map(([kind, value, line]) => ({ class: 'provider', kind, value, line: line(value) }));
}
