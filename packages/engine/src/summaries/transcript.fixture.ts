import type { TranscriptLine } from './summary-types';

/**
 * A realistic session, used by the summary tests: a user and an agent
 * adding retries to an HTTP client, with tool calls, a code block, a
 * failing test and a plan.
 */
export const fixtureTranscript: TranscriptLine[] = [
  { role: 'system', text: 'You will follow the repository rules. I will never push to main.' },
  {
    role: 'user',
    text: "The sync job fails on large workspaces. Can you look at src/sync/client.ts? Let's go with exponential backoff, not a fixed delay.",
    at: '2025-01-10T09:00:00Z',
  },
  {
    role: 'assistant',
    text: "I'll start by reading the client. Node.js 20 has global fetch, so no new dependency is needed.",
  },
  { role: 'tool', toolName: 'Read', text: '{"file_path":"/work/app/src/sync/client.ts"}' },
  {
    role: 'tool',
    toolName: 'Bash',
    text: '{"command":"pnpm vitest run src/sync","description":"run the sync tests"}',
  },
  {
    role: 'assistant',
    text: [
      'The test `sync retries on 503` is failing: the client gives up after one attempt.',
      'Error: expected 3 calls, received 1 (src/sync/client.test.ts:42:7).',
      '',
      '```bash',
      '$ pnpm vitest run src/sync',
      'git diff --stat',
      '```',
      '',
      'We decided to keep the retry loop inside `postJson` rather than wrapping fetch.',
      'I will add a `maxRetries` option defaulting to 2.',
    ].join('\n'),
  },
  {
    role: 'user',
    text: 'Sounds good. Note that ./docs/CONFIG.md must mention the option. See https://example.com/guide.html for the style.',
  },
  {
    role: 'tool',
    toolName: 'Edit',
    text: '{"file_path":"src/sync/client.ts","old_string":"...","new_string":"..."}',
  },
  {
    role: 'assistant',
    text: [
      'Done: the retry loop is in and `pnpm vitest run src/sync` passes.',
      '',
      'Next steps:',
      '- Document `maxRetries` in ./docs/CONFIG.md',
      '- Run `pnpm biome check --write .` before the commit',
      '',
      'I cannot run the e2e suite here because Docker is not installed.',
      'TODO: ask whether /etc/app/sync.conf should get the same option.',
    ].join('\n'),
  },
];
