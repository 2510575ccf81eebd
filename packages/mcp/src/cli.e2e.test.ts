import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dailyMemoryFileName } from '@cairn/core';
import { node24Path } from '@cairn/node24';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MEMORY_TOOL_NAMES } from './memory-tools';
import { callTool } from './test-client';

/*
 * These drive the BUILT `cairn` binary (packages/cli/dist/bin.cjs). @cairn/cli
 * depends on @cairn/mcp, so it cannot be a dependency here: turbo must build
 * the CLI before this file runs.
 */

const bin = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));

let project: TempProject;
let env: Record<string, string>;

beforeAll(() => {
  if (!existsSync(bin)) {
    throw new Error(
      `${bin} does not exist: run \`pnpm build\` at the repo root (it builds @cairn/cli)`,
    );
  }
  const help = spawnSync(process.execPath, [bin, 'mcp', '--help'], { encoding: 'utf8' });
  if (help.status !== 0) {
    throw new Error(
      `the built CLI has no \`mcp\` command (${help.stderr.trim()}): register mcpCommand in packages/cli/src/cli.ts and rebuild`,
    );
  }
});

beforeEach(async () => {
  project = await makeTempProject('cairn-mcp-e2e-');
  const home = join(project.root, 'home');
  env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CAIRN_TIMEZONE: 'UTC',
  };
});
afterEach(() => project.cleanup());

/** The children run with CAIRN_TIMEZONE=UTC, so today's daily file is predictable. */
function todayFile(): string {
  return join(project.root, '.cairn', 'memory', dailyMemoryFileName(new Date(), 'UTC'));
}

/** The same round trip over any transport: list, add, search, get. */
async function roundTrip(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(22);
  expect(tools.map((tool) => tool.name)).toEqual([...MEMORY_TOOL_NAMES]);
  const added = await callTool(client, 'memory_add', {
    text: 'Release notes are written in docs/CHANGELOG.md.',
  });
  expect(added).toMatchObject({ isError: false, structured: { action: 'created', kind: 'UNIT' } });
  const found = await callTool(client, 'memory_search', { query: 'release notes changelog' });
  expect(found.structured.results?.[0]).toMatchObject({ memoryId: added.structured.memoryId });
  const got = await callTool(client, 'memory_get', { memoryId: added.structured.memoryId });
  expect(got.structured.memory?.text).toBe('Release notes are written in docs/CHANGELOG.md.');
  const missing = await callTool(client, 'memory_get', {
    memoryId: 'UNIT:00000000-0000-4000-8000-000000000000',
  });
  expect(missing).toMatchObject({ isError: true, structured: { error: { code: 'NOT_FOUND' } } });
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = await once(child, 'exit');
  return code as number | null;
}

describe('cairn mcp (built CLI)', { timeout: 30_000 }, () => {
  it('stdio: the SDK client lists, adds, searches and gets', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--root', project.root],
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e-stdio', version: '0' });
    await client.connect(transport);
    await roundTrip(client);
    await client.close();
    const daily = await readFile(todayFile(), 'utf8');
    expect(daily).toContain('Release notes are written in docs/CHANGELOG.md.');
  });

  it('stdio: answers a piped script, prints only protocol on stdout, and exits 0 at end of input', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--root', project.root], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pipe', version: '0' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'memory_add', arguments: { text: 'Piped into cairn mcp.' } },
      },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    expect(await exitOf(child)).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual([1, 2]);
    expect(lines[1].result.structuredContent).toMatchObject({ action: 'created' });
    expect(stderr).toContain('cairn mcp: serving');
  });

  it('http: serves on a free port, announces the URL and the token command, needs the token, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [bin, 'mcp', '--http', '--port', '0', '--root', project.root],
      { env },
    );
    try {
      const lines = createInterface({ input: child.stderr })[Symbol.asyncIterator]();
      const line = async () => (await lines.next()).value as string | undefined;
      const url = /^cairn mcp listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(
        (await line()) ?? '',
      )?.[1];
      expect(url, 'the server printed its URL').toBeDefined();
      const how = await line();
      expect(how).toMatch(/Authorization: Bearer <token>.*cairn mcp token/);
      const shown = spawnSync(process.execPath, [bin, 'mcp', 'token'], { env, encoding: 'utf8' });
      expect(shown.status).toBe(0);
      const token = shown.stdout.trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const anonymous = await fetch(url!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(anonymous.status).toBe(401);
      const client = new Client({ name: 'e2e-http', version: '0' });
      const requestInit = { headers: { authorization: `Bearer ${token}` } };
      await client.connect(new StreamableHTTPClientTransport(new URL(url!), { requestInit }));
      await roundTrip(client);
      await client.close();
      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses a non-loopback host without --allow-remote', async () => {
    const run = promisify(execFile);
    const failure = await run(
      process.execPath,
      [bin, 'mcp', '--http', '--host', '0.0.0.0', '--root', project.root],
      {
        env,
      },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(
      /^cairn: INVALID_INPUT: Refusing to serve MCP on the non-loopback host 0\.0\.0\.0/,
    );
  });
});

describe('MCP Inspector CLI (an independent client, on Node 24)', { timeout: 120_000 }, () => {
  const require = createRequire(import.meta.url);
  const inspectorRoot = dirname(require.resolve('@modelcontextprotocol/inspector/package.json'));
  const launcher = join(inspectorRoot, 'clients', 'launcher', 'build', 'index.js');

  /** Runs the Inspector CLI against `cairn mcp` over stdio; its JSON output is `{ result }`. */
  async function inspector(node: string, args: string[]) {
    // The Inspector passes the server only a default environment plus `-e` pairs.
    const serverEnv = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    const target = [process.execPath, bin, 'mcp', '--root', project.root];
    const { stdout, stderr } = await promisify(execFile)(
      node,
      [launcher, '--cli', ...serverEnv, ...target, ...args, '--format', 'json'],
      { env: { ...env, MCP_AUTO_OPEN_ENABLED: 'false' }, timeout: 60_000 },
    );
    return { result: JSON.parse(stdout).result, stderr };
  }

  it('lists the eighteen tools and adds a unit to the daily file', async (ctx) => {
    const node = node24Path();
    if (!node)
      return ctx.skip(
        'no Node 24 binary (@cairn/node24 has none for this platform); the Inspector needs Node >= 22',
      );
    // --strict: the Inspector checks the tool schemas for portability and fails on errors.
    const listed = await inspector(node, ['--method', 'tools/list', '--strict']);
    expect(listed.result.tools).toHaveLength(22);
    expect(listed.result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      ...MEMORY_TOOL_NAMES,
    ]);
    expect(listed.stderr).not.toMatch(/Warning: tool/);
    const added = await inspector(node, [
      '--method',
      'tools/call',
      '--tool-name',
      'memory_add',
      '--tool-arg',
      'text=The Inspector wrote this memory.',
    ]);
    expect(added.result.structuredContent).toMatchObject({ action: 'created', kind: 'UNIT' });
    const daily = await readFile(todayFile(), 'utf8');
    expect(daily).toContain('The Inspector wrote this memory.');
  });
});
