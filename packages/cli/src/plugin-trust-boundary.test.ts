import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openCairn, setModuleImporter } from '@cairn/engine';
import openclawPlugin from '@cairn/harness-openclaw/plugin';
import { createCairnHooks, type OpencodeClientLike } from '@cairn/harness-opencode/plugin-hooks';
import {
  GATED_CONFIG_CASES,
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
  TRUST_TEST_SECRET,
  TRUST_TEST_SECRET_ENV,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

/*
 * The trust boundary in the in-process plugins: OpenCode's hooks and
 * OpenClaw's plugin open the project with `openCairn` in the harness's own
 * process, which imports the optional backend the config names, as the CLI
 * does. Every case is checked untrusted, then trusted.
 */

// Installed beside the engine for users; in this repository they are the CLI's dependencies.
setModuleImporter((specifier) => import(specifier));

const SUMMARIZER = 'summarizer openai baseUrl + apiKeyEnv';
const EMBEDDER = 'embedder openai baseUrl + apiKeyEnv';

/**
 * What each plugin run exercises once trusted: recall embeds the prompt and
 * searches through the backend (qdrant, mem0 and lancedb reach their
 * server; qmd's command only runs for `cairn search`), and in both plugins
 * the next session start writes the deferred model summary (OpenCode's
 * hooks get their env through `createCairnHooks`, which the summarizer
 * reads its key from, as the embedder does).
 */
const TRUSTED_REACH = [
  SUMMARIZER,
  EMBEDDER,
  'qdrant url + apiKey',
  'lancedb remote uri + credentials',
];
/**
 * mem0's platform client reads its key from `process.env` (backend options
 * carry no env): OpenClaw's plugin runs with it, OpenCode's hooks get theirs
 * through `createCairnHooks`, so there mem0 has no key and falls back to file.
 */
const REACHES: Record<string, Set<string>> = {
  'OpenCode plugin hooks': new Set(TRUSTED_REACH),
  'OpenClaw plugin': new Set([...TRUSTED_REACH, 'mem0 platform']),
};

let project: TempProject;
let server: ModelServer;
let marker: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  project = await makeTempProject('cairn-plugin-trust-');
  server = await startModelServer();
  marker = join(project.root, 'pwned');
  const home = join(project.root, 'home');
  env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    CAIRN_TIMEZONE: 'UTC',
    ...TRUST_TEST_SECRET_ENV,
  };
  const cairn = await openCairn(project.root, { env });
  await cairn.init();
  await cairn.add({ text: 'The kestrel pipeline lives in ci/kestrel.yml.' });
  cairn.closeWorking();
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const cli = cliRunner(() => project.root);

function opencodeClient(logs: string[]): OpencodeClientLike {
  return {
    session: {
      get: async ({ path }) => ({ data: { id: path.id, directory: project.root } }),
      messages: async () => ({ data: [] }),
    },
    app: { log: async ({ body }) => logs.push(body.message) },
  };
}

async function runOpencode(tag: string): Promise<void> {
  const logs: string[] = [];
  const hooks = createCairnHooks(
    { directory: project.root, client: opencodeClient(logs) },
    { env },
  );
  const created = (id: string) => ({
    event: { type: 'session.created', properties: { info: { id, directory: project.root } } },
  });
  const sessionID = `ses_${tag}`;
  await hooks.event!(created(sessionID) as never);
  await hooks['chat.message']!(
    { sessionID } as never,
    {
      parts: [{ type: 'text', text: 'Where does the kestrel pipeline live?' }],
    } as never,
  );
  const system = { system: [] as string[] };
  await hooks['experimental.chat.system.transform']!({ sessionID } as never, system);
  expect(system.system.join('\n')).toContain('kestrel');
  await hooks.event!({ event: { type: 'session.idle', properties: { sessionID } } } as never);
  await hooks.event!(created(`${sessionID}_next`) as never);
  await hooks.dispose!();
  expect(logs).toEqual([]);
}

type Handler = (event: unknown, ctx: unknown) => unknown;

async function runOpenclaw(tag: string): Promise<void> {
  const handlers = new Map<string, Handler>();
  const warnings: string[] = [];
  // The plugin reads process.env, as it does inside OpenClaw.
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    openclawPlugin.register({
      pluginConfig: { projectRoot: project.root },
      on: (hook: string, handler: Handler) => handlers.set(hook, handler),
      logger: { warn: (message: string) => warnings.push(message) },
    } as never);
    const call = (hook: string, event: unknown, ctx: unknown) => handlers.get(hook)!(event, ctx);
    const sessionId = `claw-${tag}`;
    const ctx = { sessionId, agentId: 'main' };
    await call('session_start', { sessionId }, ctx);
    const output = (await call(
      'before_prompt_build',
      { prompt: 'where is kestrel?' },
      { ...ctx, runId: 'run-1', workspaceDir: project.root },
    )) as { appendSystemContext?: string; prependContext?: string } | undefined;
    // The prompt's pack (prependContext) carries the unit the prompt is about.
    expect(`${output?.prependContext}\n${output?.appendSystemContext}`).toContain('kestrel');
    await call('session_end', { sessionId, reason: 'done' }, ctx);
    await call(
      'session_start',
      { sessionId: `${sessionId}-next` },
      { ...ctx, sessionId: `${sessionId}-next` },
    );
    await call('gateway_stop', {}, {});
    expect(warnings).toEqual([]);
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

const PLUGINS: Record<string, (tag: string) => Promise<void>> = {
  'OpenCode plugin hooks': runOpencode,
  'OpenClaw plugin': runOpenclaw,
};

describe('an untrusted project config in the in-process plugins', () => {
  it.each(GATED_CONFIG_CASES.map((c) => [c.name, c] as const))(
    '%s reaches nothing from either plugin until `cairn trust`',
    async (name, testCase) => {
      await writeFile(
        join(project.root, '.cairn', 'config.json'),
        JSON.stringify(testCase.config(server.url, marker)),
      );
      for (const [plugin, run] of Object.entries(PLUGINS)) {
        await run(`untrusted-${plugin.split(' ')[0]}`);
        expect(server.requests, plugin).toEqual([]);
        expect(existsSync(marker), plugin).toBe(false);
      }
      const trust = await cli.start(['trust']);
      expect(trust.code, trust.stderr).toBe(0);
      for (const [plugin, run] of Object.entries(PLUGINS)) {
        const before = server.requests.length;
        await run(`trusted-${plugin.split(' ')[0]}`);
        expect(server.requests.length > before, plugin).toBe(REACHES[plugin]!.has(name));
      }
      if (name === SUMMARIZER || name === EMBEDDER) {
        const headers = server.requests.map((r) => JSON.stringify(r.headers)).join('\n');
        expect(headers).toContain(`Bearer ${TRUST_TEST_SECRET}`);
      }
    },
  );
});
