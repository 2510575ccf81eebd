import { looksGenerated } from './provider-tokens';
import { pinned, runStart, type SecretPattern } from './secret-pattern';

/**
 * Issuer formats that are not a literal prefix and a body (those are rows
 * of PREFIXED_TOKENS): keys whose prefix varies, tokens made of several
 * parts, webhook URLs that are credentials in themselves, and, last, the
 * shape most new issuers follow (`vendor_` then a long generated body).
 */
export const PROVIDER_PATTERNS: readonly SecretPattern[] = [
  // Anthropic before OpenAI: both start with `sk-`.
  {
    kind: 'anthropic-key',
    pattern: pinned(/sk-ant-[a-z]{2,10}\d{2}-[A-Za-z0-9_-]{20,300}/g),
    hint: ['sk-ant-'],
  },
  {
    kind: 'openai-key',
    pattern: pinned(/sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9][A-Za-z0-9_-]{31,300}/g),
    hint: ['sk-'],
    // A key has a digit; `sk-learn-style-pipelines-…` does not.
    accept: (key) => /\d/.test(key),
  },
  {
    kind: 'jwt',
    pattern: pinned(/eyJ[A-Za-z0-9_-]{8,4000}\.eyJ[A-Za-z0-9_-]{8,8000}\.[A-Za-z0-9_-]{8,4000}/g),
    hint: ['eyJ'],
  },
  {
    kind: 'slack-webhook',
    pattern:
      /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,200}/g,
    hint: ['hooks.slack.com'],
  },
  {
    kind: 'discord-webhook',
    pattern:
      /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{30,100}/g,
    hint: ['/api/webhooks/'],
  },
  {
    kind: 'teams-webhook',
    pattern: /\.webhook\.office\.com\/webhook[a-z0-9]{0,4}\/[^\s"'<>]{20,400}/g,
    hint: ['.webhook.office.com'],
  },
  {
    // Base64 of the bot's id, a timestamp and an HMAC: found at its first dot.
    kind: 'discord-token',
    pattern: new RegExp(
      `\\.(?<=${runStart('A-Za-z0-9_.-')}[MNO][A-Za-z0-9_-]{23,27}\\.)[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9])`,
      'g',
    ),
    extendLeft: /[A-Za-z0-9_-]/,
    accept: (token, _match, text, at) =>
      looksGenerated(`${text.slice(Math.max(0, at - 27), at)}${token}`.replace(/[._-]/g, '')),
  },
  {
    // `123456789:AA…`, also inside `https://api.telegram.org/bot<token>/`: the part after the bot's id.
    kind: 'telegram-bot-token',
    pattern: new RegExp(
      `:A(?<=${runStart('A-Za-z0-9_:')}(?:bot)?\\d{5,16}:A)[A-Za-z0-9_-]{34}(?![A-Za-z0-9])`,
      'g',
    ),
    hint: [':A'],
  },
  {
    // Azure AD (Entra) client secrets carry `Q~` after their first four characters.
    kind: 'azure-client-secret',
    pattern: new RegExp(
      `Q~(?<=${runStart('A-Za-z0-9_~.-')}[A-Za-z0-9_~.]{3}\\dQ~)[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~])`,
      'g',
    ),
    hint: ['Q~'],
    extendLeft: /[A-Za-z0-9_~.]/,
  },
  {
    kind: 'mailchimp-key',
    pattern: new RegExp(
      `-us(?<=${runStart('A-Za-z0-9')}[0-9a-f]{32}-us)\\d{1,2}(?![A-Za-z0-9])`,
      'g',
    ),
    hint: ['-us'],
    extendLeft: /[0-9a-f]/,
  },
  {
    kind: 'onepassword-secret-key',
    pattern: pinned(
      /A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b/g,
    ),
    hint: ['A3-'],
  },
  {
    kind: 'airtable-token',
    pattern: pinned(/pat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b/g),
    hint: ['pat'],
  },
  {
    kind: 'firebase-key',
    pattern: pinned(/AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200}/g),
    hint: [':APA91b'],
  },
  {
    kind: 'braintree-token',
    pattern: /access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}/g,
    hint: ['access_token$'],
  },
  {
    // An issuer nobody listed: `vendor_` or `vendor-live_` then 30+ generated
    // characters. The prefix stays readable; hashes (`sha512-`, hex) are not tokens.
    kind: 'token',
    pattern: new RegExp(
      `[_-](?=[A-Za-z0-9]{30})(?<=${runStart('A-Za-z0-9_+/=-')}(?!sha|md5|blake|xxh|crc|integrity)[a-z][a-z0-9]{1,9}(?:[_-][a-z0-9]{1,10}){0,2}[_-])([A-Za-z0-9]{30,200})(?![A-Za-z0-9_+/=-])`,
      'g',
    ),
    group: 1,
    accept: (body) => !/^[0-9a-fA-F]+$/.test(body) && looksGenerated(body),
  },
];
