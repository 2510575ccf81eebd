import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callTool, connectInMemory } from './test-client';

let project: TempProject;
let cairn: Cairn;
let client: Client;

const call = (name: string, args?: Record<string, unknown>) => callTool(client, name, args);

beforeEach(async () => {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
  await cairn.init();
  client = await connectInMemory(cairn);
});

afterEach(async () => {
  await client.close();
  await project.cleanup();
});

describe('bad input and thrown errors', () => {
  it.each([
    ['memory_add', {}, /text/],
    ['memory_add', { text: 42 }, /text/],
    ['memory_add', { text: 'A valid memory.', category: 'gossip' }, /category/],
    ['memory_add', { text: 'A valid memory.', colour: 'red' }, /colour/],
    ['memory_get', {}, /memoryId/],
    ['memory_search', { query: 'x', limit: 0 }, /limit/],
    ['memory_search', { query: 'x', filters: { kind: ['BLOB'] } }, /kind/],
    ['memory_expand', { nodeId: 'node:x' }, /agentId/],
    ['memory_threads', { agentId: 7 }, /agentId/],
    ['memory_thread_head', { agentId: 'claude' }, /threadKey/],
    [
      'memory_session_context',
      { agentId: 'claude', sessionKey: 's1', source: 'startup' },
      /source/,
    ],
  ])(
    '%s %j is rejected by the schema, names the field and changes nothing',
    async (name, args, field) => {
      const before = await snapshotTree(project.root);
      const { result, text } = await call(name, args);
      expect(result.isError).toBe(true);
      expect(text).toMatch(/Input validation error/);
      expect(text).toMatch(field);
      expect(await snapshotTree(project.root)).toEqual(before);
      expect((await call('memory_list')).result.isError).toBeFalsy();
    },
  );

  it('results keep to the declared output schema: unknown fields are dropped', async () => {
    const record = {
      memoryId: 'UNIT:00000000-0000-4000-8000-000000000000',
      kind: 'UNIT' as const,
      path: '2026-04-22.md',
      startLine: 3,
      endLine: 5,
      text: 'A memory from a newer engine.',
      embedding: [0.1, 0.2],
    };
    const other = await connectInMemory({ ...cairn, get: async () => record });
    const { tools } = await other.listTools();
    expect(tools.find((tool) => tool.name === 'memory_get')?.outputSchema).toMatchObject({
      additionalProperties: false,
    });
    const { structured } = await callTool(other, 'memory_get', { memoryId: record.memoryId });
    const { embedding: _dropped, ...declared } = record;
    expect(structured).toEqual({ memory: declared });
    await other.close();
  });

  it('a non-Cairn error becomes INTERNAL and the server keeps serving', async () => {
    const onToolError = vi.fn();
    const broken: Cairn = {
      ...cairn,
      get: async () => {
        throw new Error('disk on fire');
      },
    };
    const other = await connectInMemory(broken, { onToolError });
    const failed = await callTool(other, 'memory_get', { memoryId: 'UNIT:x' });
    expect(failed.isError).toBe(true);
    expect(failed.structured.error).toMatchObject({ code: 'INTERNAL', message: 'disk on fire' });
    expect(onToolError).toHaveBeenCalledWith(expect.any(Error), 'memory_get');
    expect((await callTool(other, 'memory_list')).isError).toBe(false);
    await other.close();
  });

  it('a raw EACCES from the file system is READ_FAILED, not INTERNAL', async () => {
    const refused: Cairn = {
      ...cairn,
      get: async () => {
        throw Object.assign(new Error("EACCES: permission denied, open '/p/x.md'"), {
          code: 'EACCES',
          syscall: 'read',
          path: '/p/x.md',
        });
      },
    };
    const other = await connectInMemory(refused);
    const failed = await callTool(other, 'memory_get', { memoryId: 'UNIT:x' });
    expect(failed.structured.error).toMatchObject({ code: 'READ_FAILED' });
    await other.close();
  });
});
