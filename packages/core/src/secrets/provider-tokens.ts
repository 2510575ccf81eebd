import { lowerRunShare } from './secret-names';
import { runStart } from './secret-pattern';

/**
 * Credentials that announce themselves by a prefix their issuer puts in
 * front of a random body: the major clouds, code hosts and package
 * registries, CI services, chat services, payment and mail providers,
 * model providers. Formats taken from the issuers' documentation and from
 * the lists kept by secretlint's recommended preset and gitleaks' rules
 * (read for the formats; the table is our own). One row per prefix: the
 * prefix, the kind reported, and the body after it (a bounded regex
 * source). Most rows add a prefix to a finder regex rather than a pass
 * of their own, so a longer table costs little more per text.
 */

export interface PrefixedToken {
  prefix: string;
  kind: string;
  /** The body after the prefix: a regex source with bounded repetition only. */
  body: string;
  /** A short prefix that code also uses (`fw_`, `re_`): the body must look generated too. */
  loose?: boolean;
}

const B62 = '[A-Za-z0-9]';
const URLSAFE = '[A-Za-z0-9_-]';
const HEX = '[a-f0-9]';
const HEX_ANY = '[a-fA-F0-9]';

/** Rows sharing kind and body, one per prefix. */
const rows = (kind: string, body: string, ...prefixes: string[]): PrefixedToken[] =>
  prefixes.map((prefix) => ({ prefix, kind, body }));
const looseRows = (kind: string, body: string, ...prefixes: string[]): PrefixedToken[] =>
  prefixes.map((prefix) => ({ prefix, kind, body, loose: true }));

export const PREFIXED_TOKENS: readonly PrefixedToken[] = [
  // Clouds.
  ...rows('aws-access-key', '[A-Z0-9]{16}', 'AKIA', 'ASIA', 'ABIA', 'ACCA'),
  ...rows('aws-bedrock-key', '[A-Za-z0-9+/]{60,400}={0,2}', 'ABSK'),
  ...rows('google-api-key', `${URLSAFE}{35}`, 'AIza'),
  ...rows('google-oauth-token', `${URLSAFE}{20,2048}`, 'ya29.'),
  ...rows('google-oauth-token', `${URLSAFE}{30,512}`, '1//0'),
  ...rows('google-client-secret', `${URLSAFE}{24,40}`, 'GOCSPX-'),
  ...rows('alibaba-access-key', `${B62}{12,30}`, 'LTAI'),
  ...looseRows('tencent-secret-id', `${B62}{32,36}`, 'AKID'),
  ...rows('yandex-api-key', `${URLSAFE}{35,38}`, 'AQVN'),
  ...rows('digitalocean-token', `${HEX}{64}`, 'dop_v1_', 'doo_v1_', 'dor_v1_'),
  ...rows('heroku-api-key', `${URLSAFE}{40,80}`, 'HRKU-'),
  ...rows('cloudflare-token', `${B62}{40,64}`, 'cfk_', 'cfut_', 'cfat_'),
  ...rows('cloudflare-origin-key', `${HEX}{24}-${HEX}{146}`, 'v1.0-'),
  ...rows('flyio-token', `${URLSAFE}{43}`, 'fo1_'),
  ...rows('flyio-token', '[A-Za-z0-9+/]{60,2000}={0,3}', 'fm1r_', 'fm1a_', 'fm2_'),
  ...rows('vercel-token', `${B62}{20,60}`, 'vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'),
  ...rows('netlify-token', `${URLSAFE}{36,64}`, 'nfp_'),
  ...rows('supabase-token', `${HEX}{40}`, 'sbp_'),
  ...rows('supabase-token', `${URLSAFE}{20,100}`, 'sb_secret_'),
  ...looseRows('render-key', `${B62}{24,64}`, 'rnd_'),
  ...rows('pulumi-token', `${HEX}{40}`, 'pul-'),
  ...rows('vault-token', `${URLSAFE}{24,300}`, 'hvs.', 'hvb.', 'hvr.'),
  ...rows('doppler-token', `${B62}{24,64}`, 'dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.'),
  ...rows('databricks-token', `${HEX}{32}(?:-\\d)?`, 'dapi'),
  ...rows('openshift-token', `${URLSAFE}{43}`, 'sha256~'),
  ...rows('planetscale-token', '[A-Za-z0-9_=.-]{32,64}', 'pscale_tkn_', 'pscale_pw_'),
  ...rows('planetscale-token', '[A-Za-z0-9_=.-]{32,64}', 'pscale_oauth_'),
  // Code hosts, package registries, CI.
  ...rows('github-token', `${B62}{36,255}`, 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'),
  ...rows('github-token', '[A-Za-z0-9_]{22,255}', 'github_pat_'),
  ...rows(
    'gitlab-token',
    `${URLSAFE}{20,300}(?:\\.[A-Za-z0-9]{2}\\.[a-z0-9]{7,9})?`,
    'glpat-',
    'glrt-',
    'glptt-',
    'gldt-',
    'glsoat-',
    'glcbt-',
    'glft-',
    'glimt-',
    'glagent-',
    'gloas-',
    'glffct-',
    'GR1348941',
  ),
  ...rows('bitbucket-token', '[A-Za-z0-9_=.-]{32,300}', 'ATBB'),
  ...rows('atlassian-token', '[A-Za-z0-9_=-]{40,400}', 'ATATT', 'ATCTT'),
  ...rows('npm-token', `${B62}{36}`, 'npm_'),
  ...rows('pypi-token', `${URLSAFE}{32,1000}`, 'pypi-'),
  ...rows('rubygems-token', `${HEX}{48}`, 'rubygems_'),
  ...rows('nuget-key', '[a-z0-9]{43}', 'oy2'),
  ...rows('docker-token', `${URLSAFE}{27,64}`, 'dckr_pat_', 'dckr_oat_'),
  ...rows('jfrog-token', `${B62}{60,80}`, 'AKCp'),
  ...rows('jfrog-token', `${B62}{59}`, 'cmVmd'),
  ...rows('clojars-token', '[a-z0-9]{60}', 'CLOJARS_'),
  ...rows('circleci-token', `${B62}{22}_${HEX}{40}`, 'CCIPAT_', 'CCIPRJ_'),
  ...rows('buildkite-token', `${HEX}{40}`, 'bkua_'),
  ...rows('sonarqube-token', `${HEX}{40}`, 'squ_', 'sqp_', 'sqa_'),
  ...rows('sourcegraph-token', `(?:${HEX_ANY}{16}_)?${HEX_ANY}{40}`, 'sgp_'),
  ...rows('terraform-token', `${URLSAFE}{60,70}`, 'atlasv1.'),
  ...rows('prefect-token', `${B62}{36}`, 'pnu_'),
  ...looseRows('infracost-token', `${B62}{32}`, 'ico-'),
  ...rows('readme-token', '[a-z0-9]{70}', 'rdme_'),
  ...rows('scalingo-token', `${URLSAFE}{48}`, 'tk-us-'),
  ...looseRows('octopus-key', '[A-Z0-9]{26}', 'API-'),
  // Chat, mail and collaboration services.
  ...rows('slack-token', '[A-Za-z0-9-]{10,250}', 'xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-'),
  ...rows('slack-token', '[A-Za-z0-9-]{10,250}', 'xoxr-', 'xoxe-', 'xoxe.xoxb-', 'xoxe.xoxp-'),
  ...rows('slack-token', '[A-Za-z0-9-]{10,250}', 'xapp-'),
  ...rows('sendgrid-key', `${URLSAFE}{16,32}\\.${URLSAFE}{30,64}`, 'SG.'),
  ...rows('brevo-key', `${HEX}{64}-${B62}{16}`, 'xkeysib-', 'xsmtpsib-'),
  ...looseRows('mailgun-key', `${HEX}{32}`, 'key-'),
  ...looseRows('resend-key', `${B62}{8}_${B62}{24}`, 're_'),
  ...looseRows('twilio-key', `${HEX_ANY}{32}`, 'SK'),
  ...looseRows('twilio-account', `${HEX}{32}`, 'AC'),
  ...rows('linear-key', `${B62}{40}`, 'lin_api_'),
  ...rows('linear-key', `${HEX}{64}`, 'lin_oauth_'),
  ...rows('notion-token', `${B62}{40,50}`, 'ntn_'),
  ...looseRows('notion-token', `${B62}{43}`, 'secret_'),
  ...rows('figma-token', `${URLSAFE}{40,200}`, 'figd_'),
  ...rows('tailscale-key', `${URLSAFE}{30,120}`, 'tskey-'),
  ...rows('postman-key', `${B62}{24}-${B62}{34}`, 'PMAK-'),
  ...rows('onepassword-token', '[A-Za-z0-9+/=]{100,2000}', 'ops_eyJ'),
  ...rows('typeform-token', `${URLSAFE}{40,80}`, 'tfp_'),
  ...rows('contentful-token', `${URLSAFE}{43}`, 'CFPAT-'),
  ...rows('mapbox-token', '[A-Za-z0-9_.-]{60,400}', 'sk.eyJ'),
  ...rows('frameio-token', '[A-Za-z0-9_=-]{64}', 'fio-u-'),
  // Observability.
  ...rows('grafana-token', '[A-Za-z0-9+/]{32,400}={0,2}', 'glc_'),
  ...rows('grafana-token', `${B62}{32}_${HEX_ANY}{8}`, 'glsa_'),
  ...rows('grafana-token', `${B62}{70,400}={0,3}`, 'eyJrIjoi'),
  ...rows('newrelic-key', '[A-Za-z0-9]{27}', 'NRAK-'),
  ...rows('newrelic-key', '[A-Za-z0-9-]{32}', 'NRII-'),
  ...rows('newrelic-key', `${HEX}{19}`, 'NRJS-'),
  ...rows('sentry-token', '[A-Za-z0-9+/=_]{50,400}', 'sntrys_'),
  ...rows('sentry-token', `${HEX}{64}`, 'sntryu_'),
  ...rows('dynatrace-token', `${B62}{24}\\.${B62}{64}`, 'dt0c01.'),
  // Payments and commerce.
  ...rows('stripe-key', `${B62}{10,250}`, 'sk_live_', 'sk_test_', 'sk_prod_'),
  ...rows('stripe-key', `${B62}{10,250}`, 'rk_live_', 'rk_test_', 'rk_prod_', 'whsec_'),
  ...rows('shopify-token', `${HEX_ANY}{32}`, 'shpat_', 'shpca_', 'shppa_', 'shpss_'),
  ...looseRows('square-token', `${URLSAFE}{22,60}`, 'sq0atp-', 'sq0csp-', 'EAAA'),
  ...rows('facebook-token', `${B62}{100,400}`, 'EAAC', 'EAAM'),
  ...rows('shippo-token', `${HEX_ANY}{40}`, 'shippo_live_', 'shippo_test_'),
  ...rows('easypost-key', `${B62}{54}`, 'EZAK', 'EZTK'),
  ...rows('duffel-token', '[A-Za-z0-9_=-]{43}', 'duffel_live_', 'duffel_test_'),
  ...rows('flutterwave-key', `${HEX_ANY}{32}-X`, 'FLWSECK_TEST-', 'FLWSECK-'),
  // Model providers (OpenAI and Anthropic keys have patterns of their own).
  ...looseRows('huggingface-token', `${B62}{30,64}`, 'hf_'),
  ...rows('huggingface-token', '[A-Za-z]{34}', 'api_org_'),
  ...rows('groq-key', `${B62}{48,60}`, 'gsk_'),
  ...rows('perplexity-key', `${B62}{40,60}`, 'pplx-'),
  ...rows('xai-key', `${B62}{40,120}`, 'xai-'),
  ...looseRows('replicate-token', `${B62}{30,50}`, 'r8_'),
  ...rows('langsmith-key', '[A-Za-z0-9_]{32,80}', 'lsv2_pt_', 'lsv2_sk_'),
  ...looseRows('tavily-key', `${B62}{32,48}`, 'tvly-'),
  ...rows('pinecone-key', '[A-Za-z0-9_]{50,100}', 'pcsk_'),
  ...looseRows('fireworks-key', `${B62}{24,64}`, 'fw_'),
  // Private keys that are one line.
  ...rows('private-key', '[0-9A-Z]{58}', 'AGE-SECRET-KEY-1'),
];

/** A body counts when it holds a digit or a capital: `pypi-compatible-wheels` is prose. */
const NOT_PROSE = /[0-9A-Z]/;

/**
 * Whether a body looks generated: a digit or a capital, and hardly any run
 * of lower-case letters long enough to be a word (`updateFirmware2024Release`
 * is an identifier).
 */
export function looksGenerated(body: string): boolean {
  return NOT_PROSE.test(body) && lowerRunShare(body) < 0.5;
}

/** Whether a body after a prefix of the table is a token of that row. */
export function acceptsBody(row: { loose?: boolean }, body: string): boolean {
  return row.loose ? looksGenerated(body) : NOT_PROSE.test(body);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A regex that finds prefixes of the table, and where the prefix it found starts. */
export interface PrefixFinder {
  pattern: RegExp;
  /** The one prefix this finder looks for, when it looks for one: a text without it is not scanned. */
  literal?: string;
  /** The prefix found and where it starts, from a match of `pattern`. */
  found(match: RegExpExecArray): { prefix: string; at: number };
}

/** Prefixes end with one of these: a finder looks for the character, then behind it. */
const DELIMITERS = ['_', '-', '.', '~'];

/**
 * The finders: one per delimiter, which scans for that character (a regex
 * that starts with a literal is scanned quickly) and reads the prefix
 * behind it, and one per prefix that ends otherwise (`AKIA`, `1//0`). Each
 * prefix must start a run (runStart): `task-`, `MSG.` are no prefixes.
 * Longer prefixes are tried first, so `xoxe.xoxb-` wins over `xoxe-`.
 * Built on first use: a process that never redacts (most hooks record
 * without injecting) does not pay for them.
 */
export function prefixFinders(): readonly PrefixFinder[] {
  finders ??= buildFinders();
  return finders;
}
let finders: readonly PrefixFinder[] | undefined;

function buildFinders(): PrefixFinder[] {
  const prefixes = [...new Set(PREFIXED_TOKENS.map((row) => row.prefix))].sort(
    (a, b) => b.length - a.length,
  );
  return [
    ...DELIMITERS.map((delimiter) => {
      const heads = prefixes.filter((p) => p.endsWith(delimiter)).map((p) => p.slice(0, -1));
      const d = escapeRegex(delimiter);
      return {
        pattern: new RegExp(
          `${d}(?<=${runStart()}(?<head>${heads.map(escapeRegex).join('|')})${d})`,
          'g',
        ),
        found: (match: RegExpExecArray) => {
          const head = match.groups?.head ?? '';
          return { prefix: head + delimiter, at: match.index - head.length };
        },
      };
    }),
    ...prefixes
      .filter((p) => !DELIMITERS.includes(p.at(-1)!))
      .map((prefix) => ({
        pattern: new RegExp(`${runStart()}${escapeRegex(prefix)}`, 'g'),
        literal: prefix,
        found: (match: RegExpExecArray) => ({ prefix, at: match.index }),
      })),
  ];
}

/** The rows of a prefix (most have one). */
export function rowsOf(prefix: string): readonly PrefixedToken[] {
  if (rowsByPrefix.size === 0) {
    for (const row of PREFIXED_TOKENS) {
      rowsByPrefix.set(row.prefix, [...(rowsByPrefix.get(row.prefix) ?? []), row]);
    }
  }
  return rowsByPrefix.get(prefix) ?? [];
}
const rowsByPrefix = new Map<string, PrefixedToken[]>();

/**
 * A row's body as a sticky regex (compiled on first use: most rows never
 * meet their prefix), ending where the token does: not in the middle of a
 * longer run of letters and digits.
 */
export function bodyPattern(row: PrefixedToken): RegExp {
  let compiled = bodies.get(row);
  if (!compiled) {
    compiled = new RegExp(`(?:${row.body})(?![A-Za-z0-9])`, 'y');
    bodies.set(row, compiled);
  }
  return compiled;
}
const bodies = new Map<PrefixedToken, RegExp>();
