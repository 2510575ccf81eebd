import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MAX_STDIO_LINE_BYTES } from './stdio-line-transport';

/* Drives the BUILT `cairn` binary (packages/cli/dist/bin.cjs), like cli.e2e.test.ts. */
const bin = fileURLToPath(new URL('../../cli/dist/bin.cjs', import.meta.url));

let project: TempProject;

beforeEach(async () => {
  project = await makeTempProject('cairn-mcp-lines-');
});
afterEach(() => project.cleanup());

it('cairn mcp over stdio answers a 20 MB request line with an error and keeps serving', {
  timeout: 60_000,
}, async () => {
  expect(existsSync(bin), `${bin}: run \`pnpm build\` first`).toBe(true);
  const home = join(project.root, 'home');
  const child = spawn(process.execPath, [bin, 'mcp', '--root', project.root], {
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
  });
  // A server that dies mid-write must fail the assertions below, not the run.
  child.stdin.on('error', () => {});
  try {
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => JSON.parse((await answers.next()).value as string);
    const huge = 'x'.repeat(20 * 1024 * 1024);
    expect(huge.length).toBeGreaterThan(MAX_STDIO_LINE_BYTES);
    child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${huge}"}}\n`);
    expect(await next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });

    child.stdin.write('this is not json\n');
    expect(await next()).toMatchObject({ id: null, error: { code: -32700 } });

    const initialize = {
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'lines', version: '0' },
      },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    expect(await next()).toMatchObject({ id: 2, result: { serverInfo: { name: 'cairn' } } });
    child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
    expect(await next()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
