import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectInMemory } from './test-client';

let project: TempProject;
let cairn: Cairn;
let client: Client;
let unitId: string;

const open = async (memoryBackendType: 'file' | 'readonly') => {
  const home = join(project.root, 'home');
  return openCairn(project.root, {
    env: { HOME: home },
    homeDir: home,
    overrides: { memoryBackendType },
  });
};

beforeEach(async () => {
  project = await makeTempProject();
  const writable = await open('file');
  await writable.init();
  const added = await writable.add({ text: 'Releases are cut on Tuesdays.', category: 'fact' });
  if (added.action !== 'created') throw new Error(`seed failed: ${added.action}`);
  unitId = added.memoryId;
  cairn = await open('readonly');
  client = await connectInMemory(cairn);
});

afterEach(async () => {
  await client.close();
  cairn.closeWorking();
  await project.cleanup();
});

describe('a read-only backend through the MCP server', () => {
  it.each([
    ['memory_add', () => ({ text: 'Hotfixes skip the release train.' })],
    ['memory_replace', () => ({ memoryId: unitId, text: 'Releases are cut on Mondays.' })],
    ['memory_remove', () => ({ memoryId: unitId })],
  ])('%s answers READ_ONLY and changes nothing', async (name, args) => {
    const before = await snapshotTree(project.root);
    const call = await callTool(client, name, args());
    expect(call.isError).toBe(true);
    expect(call.structured.error).toMatchObject({ code: 'READ_ONLY' });
    expect(call.structured.error?.message).toMatch(/read-only/);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('reads still answer', async () => {
    const got = await callTool(client, 'memory_get', { memoryId: unitId });
    expect(got.isError).toBe(false);
    expect(got.structured.memory?.text).toBe('Releases are cut on Tuesdays.');
    const listed = await callTool(client, 'memory_list');
    expect(listed.structured.units).toHaveLength(1);
  });
});
