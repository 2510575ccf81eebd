import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFileBackend } from '@cairn/backend-file';
import {
  expectCode,
  fakeSecretDump,
  fakeSecrets,
  leakedFakeSecrets,
  makeTempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMem0Backend, type Mem0Backend } from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

interface Recorded {
  method: string;
  url: string;
  body: Record<string, unknown> | undefined;
  auth: string | undefined;
}

/** A stand-in for the Mem0 platform API: keeps added entries and answers with all of them. */
async function startPlatform() {
  const requests: Recorded[] = [];
  const entries = new Map<string, { memory: string; metadata: unknown; user_id: unknown }>();
  let next = 0;
  const bodyOf = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  };
  const state = { down: false };
  const server: Server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const url = req.url ?? '';
    requests.push({ method: req.method ?? '', url, body, auth: req.headers.authorization });
    if (state.down) return res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
    const send = (value: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (url === '/v1/ping/') return send({ status: 'ok', org_id: 'o', project_id: 'p' });
    if (url === '/v3/memories/add/') {
      const id = `m-${++next}`;
      const content = (body!.messages as { content: string }[])[0]!.content;
      entries.set(id, { memory: content, metadata: body?.metadata, user_id: body?.user_id });
      return send({ results: [{ id, memory: content, event: 'ADD' }] });
    }
    if (url === '/v3/memories/search/' || url.startsWith('/v3/memories/?')) {
      const results = [...entries].map(([id, e], i) => ({ id, ...e, score: 0.9 - i * 0.01 }));
      return send({ results, next: null });
    }
    const deleted = /^\/v1\/memories\/([^/]+)\/$/.exec(url);
    if (deleted && req.method === 'DELETE') {
      entries.delete(decodeURIComponent(deleted[1]!));
      return send({ message: 'Memory deleted successfully!' });
    }
    res.writeHead(404).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    host: `http://127.0.0.1:${port}`,
    requests,
    entries,
    state,
    close: () => server.close(),
  };
}

describe('mem0 platform mode (MemoryClient against a local server)', () => {
  let platform: Awaited<ReturnType<typeof startPlatform>>;
  let root: string;
  let cleanup: () => Promise<void>;
  let backend: Mem0Backend | undefined;
  beforeEach(async () => {
    platform = await startPlatform();
    ({ root, cleanup } = await makeTempProject());
    process.env.CAIRN_TEST_MEM0_KEY = 'sk-test';
  });
  afterEach(async () => {
    await backend?.close();
    platform.close();
    delete process.env.CAIRN_TEST_MEM0_KEY;
    await cleanup();
  });
  const open = (options = {}) => {
    backend = createMem0Backend(
      {
        mode: 'platform',
        host: platform.host,
        apiKeyEnv: 'CAIRN_TEST_MEM0_KEY',
        scope: { userId: 'dev', agentId: 'claude' },
        namespace: 'proj',
        syncOnWrite: false,
        ...options,
      },
      { fallback: createFileBackend },
    );
    return backend;
  };

  it('sends units and raw text with their secrets redacted, partitioned by namespace and repo', async () => {
    await writeWorkspaceFile(
      root,
      '2026-03-01.md',
      `${unit(1, 'Use pnpm here.')}\nDeploy notes:\n${fakeSecretDump()}\n`,
    );
    const mem0 = open({ repo: 'app-1' });
    await mem0.sync(root);
    const adds = platform.requests.filter((r) => r.url === '/v3/memories/add/');
    expect(adds.length).toBeGreaterThan(1);
    const sent = JSON.stringify(platform.requests.map((r) => r.body));
    expect(sent).toContain('[REDACTED:');
    expect(leakedFakeSecrets(sent)).toEqual([]);
    for (const add of adds) {
      expect(add.body?.metadata).toMatchObject({
        namespace: 'proj',
        repo: 'app-1',
        scope: 'project',
      });
    }
    await mem0.search(root, { query: `pnpm ${fakeSecrets()[1]!.value}` });
    const search = platform.requests.find((r) => r.url === '/v3/memories/search/');
    expect(search?.body?.query).toBe('pnpm [REDACTED:github-token]');
  });

  it('adds units verbatim with scope, provenance and metadata, searches, and deletes removed units', async () => {
    const first = unit(1, 'Use pnpm here.', { source: 'run s-42 tool:t-7 commit 1a2b3c' });
    await writeWorkspaceFile(root, '2026-03-01.md', `${first}${unit(2, 'CI runs on Node 20.')}`);
    const mem0 = open();
    expect(await mem0.sync(root)).toMatchObject({ chunksAdded: 2 });
    const adds = platform.requests.filter((r) => r.url === '/v3/memories/add/');
    expect(adds[0]?.auth).toBe('Token sk-test');
    expect(adds[0]?.body).toMatchObject({
      messages: [{ role: 'user', content: 'Use pnpm here.' }],
      user_id: 'dev',
      agent_id: 'claude',
      infer: false,
    });
    const metadata = adds[0]?.body?.metadata as Record<string, unknown>;
    expect(metadata).toMatchObject({
      namespace: 'proj',
      pool: 'workspace',
      kind: 'UNIT',
      review: 'approved',
      // Seed 004 §6.3: scope and the unit's provenance pointers.
      scope: 'project',
      provenance: 'run s-42 tool:t-7 commit 1a2b3c',
    });
    expect(Object.values(metadata)).toContain(unitId(1));
    expect(adds[1]?.body?.metadata).not.toHaveProperty('provenance');

    const hits = await mem0.search(root, { query: 'pnpm' });
    expect(hits.map((h) => h.memoryId)).toEqual([unitId(1), unitId(2)]);
    const search = platform.requests.find((r) => r.url === '/v3/memories/search/');
    expect(search?.body).toMatchObject({
      query: 'pnpm',
      filters: { AND: [{ user_id: 'dev' }, { agent_id: 'claude' }] },
    });

    await writeWorkspaceFile(root, '2026-03-01.md', first);
    expect(await mem0.sync(root)).toMatchObject({ chunksDeleted: 1 });
    expect(platform.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/v1/memories/m-2/',
    ]);
    expect([...platform.entries.keys()]).toEqual(['m-1']);
  });

  it('a server that goes down after the sync costs quality, not answers (seed 004 §9)', async () => {
    await writeWorkspaceFile(root, 'MEMORY.md', `${unit(1, 'The dingo proxy caches DNS.')}`);
    const mem0 = open();
    expect(await mem0.sync(root)).toMatchObject({ chunksAdded: 1 });
    expect((await mem0.search(root, { query: 'dingo proxy' }))[0]?.memoryId).toBe(unitId(1));
    platform.state.down = true;
    const [hit] = await mem0.search(root, { query: 'dingo proxy' });
    expect(hit?.memoryId).toBe(unitId(1));
    expect(mem0.warnings.join('\n')).toMatch(/mem0/i);
  });

  it('without the API key: BACKEND_UNAVAILABLE naming the variable, and search falls back', async () => {
    delete process.env.CAIRN_TEST_MEM0_KEY;
    await writeWorkspaceFile(root, 'MEMORY.md', '# Memory\n\nThe dingo proxy caches DNS.\n');
    const mem0 = open();
    const error = await expectCode(mem0.sync(root), 'BACKEND_UNAVAILABLE');
    expect(error.message).toContain('CAIRN_TEST_MEM0_KEY');
    const [hit] = await mem0.search(root, { query: 'dingo proxy' });
    expect(hit?.snippet).toContain('dingo');
    expect(mem0.warnings.join('\n')).toContain('CAIRN_TEST_MEM0_KEY');
    expect(platform.requests).toEqual([]);
  });
});
