import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  GATED_CONFIG_CASES,
  type GatedConfigCase,
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
  TRUST_TEST_SECRET,
  TRUST_TEST_SECRET_ENV,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, cliRunner } from './test-cli';

/*
 * The trust boundary at every process entry point of the built CLI: for
 * each gated setting in an untrusted `.cairn/config.json`, `cairn add`,
 * `cairn search` and the hooks reach no listener and run no command (and
 * say so on stderr); after `cairn trust` the same runs do. The MCP server
 * is covered in packages/mcp (trust-boundary.e2e.test.ts), the in-process
 * plugins in plugin-trust-boundary.test.ts.
 */

let project: TempProject;
let server: ModelServer;
let marker: string;

beforeEach(async () => {
  project = await makeTempProject('cairn-trust-');
  server = await startModelServer();
  marker = join(project.root, 'pwned');
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC', ...TRUST_TEST_SECRET_ENV });

type EntryPoint = (session: string) => Promise<CliRun[]>;

// Always spawn asynchronously: a synchronous spawn would block this process's listener.
const run = (args: string[], input?: string) => cli.start(args, input);

const hook = (harness: string, event: string, fields: Record<string, unknown>, session: string) =>
  run(
    ['hook', harness, event],
    JSON.stringify({
      session_id: session,
      transcript_path: '',
      cwd: project.root,
      hook_event_name: event,
      ...fields,
    }),
  );

const CLI_ENTRY_POINTS: Record<string, EntryPoint> = {
  'cairn add': async () => [await run(['add', 'The kestrel pipeline deploys on Fridays.'])],
  'cairn search': async () => [await run(['search', 'kestrel pipeline'])],
  'hook claude-code UserPromptSubmit': async (session) => [
    await hook('claude-code', 'UserPromptSubmit', { prompt: 'where is kestrel?' }, session),
  ],
  'hook codex UserPromptSubmit': async (session) => [
    await hook('codex', 'UserPromptSubmit', { prompt: 'where is kestrel?' }, session),
  ],
  // Claude Code defers the model summary at SessionEnd; the next SessionStart writes it.
  'hook claude-code SessionEnd, then SessionStart': async (session) => [
    await hook('claude-code', 'SessionStart', { source: 'startup' }, session),
    await hook(
      'claude-code',
      'UserPromptSubmit',
      { prompt: 'We ship kestrel on Monday.' },
      session,
    ),
    await hook('claude-code', 'SessionEnd', { reason: 'exit' }, session),
    await hook('claude-code', 'SessionStart', { source: 'startup' }, `${session}-next`),
  ],
};

const SEARCH_AND_HOOKS = [
  'cairn search',
  'hook claude-code UserPromptSubmit',
  'hook codex UserPromptSubmit',
  'hook claude-code SessionEnd, then SessionStart',
];

/**
 * Which entry points exercise each gated setting once it is trusted (so
 * the untrusted runs above prove something). `cairn add` only writes
 * markdown; indexes sync on the next search. The hooks recall through the
 * backend, except with qmd, whose command only runs for `cairn search`.
 */
const REACHES: Record<string, string[]> = {
  'qmd command': ['cairn search'],
  'summarizer openai baseUrl + apiKeyEnv': ['hook claude-code SessionEnd, then SessionStart'],
  'embedder openai baseUrl + apiKeyEnv': SEARCH_AND_HOOKS,
  'qdrant url + apiKey': SEARCH_AND_HOOKS,
  'mem0 platform': SEARCH_AND_HOOKS,
  'lancedb remote uri + credentials': SEARCH_AND_HOOKS,
};

/** The cases whose trusted requests carry the secret from the environment. */
const SENDS_SECRET = new Set([
  'summarizer openai baseUrl + apiKeyEnv',
  'embedder openai baseUrl + apiKeyEnv',
  'mem0 platform',
]);

async function setUp(testCase: GatedConfigCase): Promise<void> {
  expect((await run(['init'])).code).toBe(0);
  expect((await run(['add', 'The kestrel pipeline lives in ci/kestrel.yml.'])).code).toBe(0);
  await writeFile(
    join(project.root, '.cairn', 'config.json'),
    JSON.stringify(testCase.config(server.url, marker)),
  );
}

function reached(): boolean {
  return server.requests.length > 0 || existsSync(marker);
}

describe('an untrusted project config at the CLI entry points', () => {
  it.each(GATED_CONFIG_CASES.map((c) => [c.name, c] as const))(
    '%s reaches nothing until `cairn trust`',
    async (_name, testCase) => {
      await setUp(testCase);
      // Nothing at all reaches the listener (so neither the secret nor the prompt).
      for (const [entry, start] of Object.entries(CLI_ENTRY_POINTS)) {
        const runs = await start(`untrusted-${entry.replace(/\W+/g, '-')}`);
        for (const result of runs) {
          expect(result.code, `${entry}: ${result.stderr}`).toBe(0);
          expect(result.stderr, entry).toMatch(/untrusted project config.*cairn trust/);
        }
        expect(server.requests, entry).toEqual([]);
        expect(existsSync(marker), entry).toBe(false);
      }
      const status = await run(['status']);
      expect(status.stdout).toContain('project config NOT trusted');
      const doctor = await run(['doctor']);
      expect(doctor.stdout).toMatch(/! ignored .* untrusted project config/);
      expect(server.requests).toEqual([]);

      const trust = await run(['trust']);
      expect(trust.code, trust.stderr).toBe(0);
      expect(trust.stdout).toMatch(/settings now honoured from it:\n {2}\+ /);
      expect((await run(['status'])).stdout).toContain('project config trusted');

      const observed: string[] = [];
      for (const [entry, start] of Object.entries(CLI_ENTRY_POINTS)) {
        // A hook's plane has 2 s (PLANE_TIMEOUT_MS): a cold native load on a loaded machine can
        // pass it, and the hook fails open before its request leaves. One more try, warm.
        for (const attempt of ['', '-again']) {
          const before = server.requests.length;
          const markerBefore = existsSync(marker);
          const runs = await start(`trusted-${entry.replace(/\W+/g, '-')}${attempt}`);
          for (const result of runs) expect(result.code, `${entry}: ${result.stderr}`).toBe(0);
          if (server.requests.length > before || (!markerBefore && existsSync(marker))) {
            observed.push(entry);
            break;
          }
          if (!REACHES[testCase.name]?.includes(entry)) break;
        }
      }
      expect(observed).toEqual(REACHES[testCase.name]);
      expect(reached()).toBe(true);
      if (SENDS_SECRET.has(testCase.name)) {
        const headers = server.requests.map((r) => JSON.stringify(r.headers)).join('\n');
        expect(headers).toContain(TRUST_TEST_SECRET);
      }
    },
    // About twenty processes per case; the trusted remote backends retry before they fall back.
    300_000,
  );
});
