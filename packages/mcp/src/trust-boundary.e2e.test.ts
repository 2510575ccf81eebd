import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  GATED_CONFIG_CASES,
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
  TRUST_TEST_SECRET,
  TRUST_TEST_SECRET_ENV,
} from '@cairn/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool } from './test-client';

/*
 * The trust boundary at the MCP entry point: the BUILT `cairn mcp` (see
 * cli.e2e.test.ts) over stdio, driven by the SDK client. For each gated
 * setting in an untrusted `.cairn/config.json`, memory_add and
 * memory_search reach no listener and run no command; after `cairn trust`
 * the settings that search exercises do.
 */

const bin = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));

/** The gated settings memory_search exercises once trusted (the summarizer runs at session ends only). */
const SEARCH_REACHES = new Set([
  'qmd command',
  'embedder openai baseUrl + apiKeyEnv',
  'qdrant url + apiKey',
  'mem0 platform',
  'lancedb remote uri + credentials',
]);

let project: TempProject;
let server: ModelServer;
let env: Record<string, string>;
let marker: string;

beforeEach(async () => {
  project = await makeTempProject('cairn-mcp-trust-');
  server = await startModelServer();
  marker = join(project.root, 'pwned');
  const home = join(project.root, 'home');
  env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CAIRN_TIMEZONE: 'UTC',
    ...TRUST_TEST_SECRET_ENV,
  };
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

async function cairn(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: project.root, env });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout };
}

async function addAndSearch(): Promise<string> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--root', project.root],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'trust-e2e', version: '0' });
  await client.connect(transport);
  try {
    const added = await callTool(client, 'memory_add', { text: 'Kestrel deploys on Fridays.' });
    expect(added.isError, added.text).toBe(false);
    const found = await callTool(client, 'memory_search', { query: 'kestrel' });
    expect(found.isError, found.text).toBe(false);
  } finally {
    await client.close();
  }
  return stderr;
}

describe('an untrusted project config at the MCP entry point', () => {
  it.each(GATED_CONFIG_CASES.map((c) => [c.name, c] as const))(
    '%s reaches nothing over MCP until `cairn trust`',
    async (name, testCase) => {
      expect((await cairn(['init'])).code).toBe(0);
      await writeFile(
        join(project.root, '.cairn', 'config.json'),
        JSON.stringify(testCase.config(server.url, marker)),
      );
      const stderr = await addAndSearch();
      expect(stderr).toMatch(/untrusted project config.*cairn trust/);
      expect(server.requests).toEqual([]);
      expect(existsSync(marker)).toBe(false);

      expect((await cairn(['trust'])).code).toBe(0);
      await addAndSearch();
      const reached = server.requests.length > 0 || existsSync(marker);
      expect(reached).toBe(SEARCH_REACHES.has(name));
      const sent = server.requests.map((r) => JSON.stringify(r.headers)).join('\n');
      if (name.startsWith('embedder')) expect(sent).toContain(`Bearer ${TRUST_TEST_SECRET}`);
    },
    // Each case starts four processes; the trusted remote backends retry before they fall back.
    120_000,
  );
});
