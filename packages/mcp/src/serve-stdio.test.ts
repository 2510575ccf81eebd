import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { serveStdio } from './serve-stdio';

let project: TempProject;

beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

function frame(message: object): string {
  return `${JSON.stringify(message)}\n`;
}

it('answers every request received before stdin ends, then stops by itself', async () => {
  const home = join(project.root, 'home');
  const cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  const handle = await serveStdio(cairn, { stdin, stdout });

  // A piped script: everything at once, then end of input.
  stdin.end(
    frame({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'pipe', version: '0' },
      },
    }) +
      frame({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
      frame({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'memory_add',
          arguments: { text: 'Piped writes are answered before exit.' },
        },
      }),
  );
  await handle.closed;

  const responses = lines.map((line) => JSON.parse(line));
  expect(responses.map((response) => response.id)).toEqual([1, 2]);
  expect(responses[0].result.serverInfo).toMatchObject({ name: 'cairn' });
  expect(responses[1].result.structuredContent).toMatchObject({ action: 'created' });
  expect(await cairn.list()).toHaveLength(1);
});

it('close() stops the server, settles `closed` and closes working memory', async () => {
  const home = join(project.root, 'home');
  const stdin = new PassThrough();
  const cairn = await openCairn(project.root, { env: {}, homeDir: home });
  const closeWorking = vi.spyOn(cairn, 'closeWorking');
  const handle = await serveStdio(cairn, { stdin, stdout: new PassThrough() });
  await handle.close();
  await handle.closed;
  expect(stdin.listenerCount('data')).toBe(0);
  expect(closeWorking).toHaveBeenCalledTimes(1);
});

it('answers an oversized, a non-JSON and a non-JSON-RPC line with errors and keeps serving', async () => {
  const home = join(project.root, 'home');
  const cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  const handle = await serveStdio(cairn, { stdin, stdout, maxLineBytes: 1024 });
  // The oversized line arrives in pieces, the way a pipe delivers it.
  stdin.write(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"${'x'.repeat(600)}`);
  stdin.write(`${'y'.repeat(600)}"}}\n`);
  stdin.write('{not json\n');
  stdin.write(frame({ id: 8, hello: 'world' }));
  stdin.end(frame({ jsonrpc: '2.0', id: 9, method: 'ping' }));
  await handle.closed;

  const responses = lines.map((line) => JSON.parse(line));
  expect(responses).toEqual([
    {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/larger than .*1024 bytes/) },
    },
    {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
    },
    {
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) },
    },
    { jsonrpc: '2.0', id: 9, result: {} },
  ]);
});

it('answers a tools/call whose arguments are not an object with -32602, and keeps serving', async () => {
  const home = join(project.root, 'home');
  const cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const handle = await serveStdio(cairn, { stdin, stdout });
  const call = (id: number, args: unknown) =>
    frame({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'memory_add', arguments: args },
    });
  stdin.end(
    frame({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '0' },
      },
    }) +
      frame({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
      call(2, 'a string') +
      call(3, [1, 2]) +
      call(4, null) +
      frame({ jsonrpc: '2.0', id: 5, method: 'ping' }),
  );
  await handle.closed;
  const byId = new Map(
    text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map((response) => [response.id, response]),
  );
  for (const id of [2, 3, 4]) {
    expect(byId.get(id)?.error?.code, JSON.stringify(byId.get(id))).toBe(-32602);
  }
  expect(byId.get(5)?.result).toEqual({});
});
