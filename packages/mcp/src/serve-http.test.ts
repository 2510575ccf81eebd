import { request } from 'node:http';
import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { expectCode, makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isLoopbackHost } from './loopback';
import { MEMORY_TOOL_NAMES } from './memory-tools';
import { type HttpServerHandle, serveHttp } from './serve-http';

let project: TempProject;
let cairn: Cairn;
let handle: HttpServerHandle | undefined;

beforeEach(async () => {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  cairn = await openCairn(project.root, { env: {}, homeDir: home });
});

afterEach(async () => {
  await handle?.close();
  handle = undefined;
  await project.cleanup();
});

/** A raw request, so the test controls the Host and Origin headers. */
function send(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '0' },
  },
});
const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvw';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...AUTH,
};

/** The SDK client over HTTP, sending `token` as a bearer token. */
async function connect(url: string, token = TOKEN): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '0' });
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return client;
}

describe('serveHttp', () => {
  it('serves the tools to the SDK client over streamable HTTP (stateless)', async () => {
    handle = await serveHttp(cairn, { port: 0, token: TOKEN });
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(handle.url);
    expect((await client.listTools()).tools).toHaveLength(MEMORY_TOOL_NAMES.length);
    const added = (await client.callTool({
      name: 'memory_add',
      arguments: { text: 'HTTP clients share the same memory.' },
    })) as CallToolResult;
    expect(added.structuredContent).toMatchObject({ action: 'created' });
    const found = (await client.callTool({
      name: 'memory_search',
      arguments: { query: 'HTTP memory' },
    })) as CallToolResult;
    const results = (found.structuredContent as { results: { memoryId?: string }[] }).results;
    expect(results[0]?.memoryId).toBe(added.structuredContent?.memoryId);
    await client.close();
  });

  it('keeps working memory open across requests and closes it once stopped', async () => {
    handle = await serveHttp(cairn, { port: 0, token: TOKEN });
    const client = await connect(handle.url);
    const args = { agentId: 'claude', sessionKey: 's1', threadKey: 'topic-http' };
    for (const attempt of [1, 2]) {
      const result = (await client.callTool({
        name: 'memory_session_context',
        arguments: args,
      })) as CallToolResult;
      expect(result.isError, `request ${attempt}`).toBeFalsy();
    }
    await client.close();
    const closeWorking = vi.spyOn(cairn, 'closeWorking');
    await handle.close();
    await handle.closed;
    expect(closeWorking).toHaveBeenCalledTimes(1);
    handle = undefined;
  });

  it('refuses a non-loopback host unless allowRemote is set', async () => {
    const error = await expectCode(
      serveHttp(cairn, { host: '0.0.0.0', port: 0, token: TOKEN }),
      'INVALID_INPUT',
    );
    expect(error.message).toMatch(/allowRemote/);
    handle = await serveHttp(cairn, { host: '0.0.0.0', port: 0, allowRemote: true, token: TOKEN });
    expect(handle.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  });

  it('rejects DNS-rebinding Host and Origin headers, other paths and GET, changing nothing', async () => {
    handle = await serveHttp(cairn, { port: 0, token: TOKEN });
    const before = await snapshotTree(project.root);
    const port = new URL(handle.url).port;
    const evilHost = await send(
      handle.url,
      'POST',
      { ...MCP_HEADERS, host: `evil.example:${port}` },
      INITIALIZE,
    );
    expect(evilHost.status).toBe(403);
    const evilOrigin = await send(
      handle.url,
      'POST',
      { ...MCP_HEADERS, origin: 'http://evil.example' },
      INITIALIZE,
    );
    expect(evilOrigin.status).toBe(403);
    const local = await send(
      handle.url,
      'POST',
      { ...MCP_HEADERS, origin: `http://localhost:${port}` },
      INITIALIZE,
    );
    expect(local.status).toBe(200);
    expect(JSON.parse(local.body).result.serverInfo.name).toBe('cairn');
    expect(
      (await send(handle.url.replace('/mcp', '/other'), 'POST', MCP_HEADERS, INITIALIZE)).status,
    ).toBe(404);
    const get = await send(handle.url, 'GET', { accept: 'text/event-stream', ...AUTH });
    expect(get.status).toBe(405);
    expect(JSON.parse(get.body).error.message).toMatch(/stateless/);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('answers 401 without the right bearer token, changing nothing', async () => {
    handle = await serveHttp(cairn, { port: 0, token: TOKEN });
    const before = await snapshotTree(project.root);
    const { authorization: _, ...noToken } = MCP_HEADERS;
    const missing = await send(handle.url, 'POST', noToken, INITIALIZE);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).error.message).toMatch(/cairn mcp token/);
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer wrong', TOKEN, `Basic ${TOKEN}`]) {
      const wrong = await send(handle.url, 'POST', { ...noToken, authorization }, INITIALIZE);
      expect(wrong.status, authorization).toBe(401);
    }
    await expect(connect(handle.url, 'wrong')).rejects.toThrow(/Unauthorized/);
    const addWithout = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'memory_add', arguments: { text: 'An anonymous local user wrote this.' } },
    });
    expect((await send(handle.url, 'POST', noToken, addWithout)).status).toBe(401);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('accepts only its own origin from browsers, even with the token', async () => {
    handle = await serveHttp(cairn, { port: 0, token: TOKEN });
    const port = new URL(handle.url).port;
    for (const origin of ['http://localhost:9999', 'http://evil.example', 'null']) {
      const foreign = await send(handle.url, 'POST', { ...MCP_HEADERS, origin }, INITIALIZE);
      expect(foreign.status, origin).toBe(403);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const own = await send(handle.url, 'POST', { ...MCP_HEADERS, origin }, INITIALIZE);
      expect(own.status, origin).toBe(200);
    }
  });

  it('needs a token unless noAuth is set', async () => {
    await expectCode(serveHttp(cairn, { port: 0 }), 'INVALID_INPUT');
    handle = await serveHttp(cairn, { port: 0, noAuth: true });
    const { authorization: _, ...noToken } = MCP_HEADERS;
    expect((await send(handle.url, 'POST', noToken, INITIALIZE)).status).toBe(200);
    const port = new URL(handle.url).port;
    const page = { ...noToken, origin: `http://localhost:${Number(port) + 1}` };
    expect((await send(handle.url, 'POST', page, INITIALIZE)).status).toBe(403);
  });

  it('reports a busy port as CONFLICT and a bad one as INVALID_INPUT', async () => {
    handle = await serveHttp(cairn, { port: 0, token: TOKEN });
    const port = Number(new URL(handle.url).port);
    await expectCode(serveHttp(cairn, { port, token: TOKEN }), 'CONFLICT');
    await expectCode(serveHttp(cairn, { port: 70000, token: TOKEN }), 'INVALID_INPUT');
  });

  it('close() settles `closed`', async () => {
    const running = await serveHttp(cairn, { port: 0, token: TOKEN });
    await running.close();
    await running.closed;
  });
});

it.each([
  ['127.0.0.1', true],
  ['127.8.9.10', true],
  ['localhost', true],
  ['::1', true],
  ['[::1]', true],
  ['0.0.0.0', false],
  ['192.168.1.4', false],
  ['localhost.evil.example', false],
  ['::', false],
])('isLoopbackHost(%s) is %s', (host, expected) => {
  expect(isLoopbackHost(host)).toBe(expected);
});
