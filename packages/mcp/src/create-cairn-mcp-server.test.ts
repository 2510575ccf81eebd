import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEMORY_TOOL_NAMES } from './memory-tools';
import { callTool, connectInMemory } from './test-client';

const NOW = new Date('2026-04-22T10:00:00Z');
const DAILY = join('.cairn', 'memory', '2026-04-22.md');

let project: TempProject;
let cairn: Cairn;
let client: Client;

const call = (name: string, args?: Record<string, unknown>) => callTool(client, name, args);

beforeEach(async () => {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home, now: () => NOW });
  await cairn.init();
  client = await connectInMemory(cairn);
});

afterEach(async () => {
  await client.close();
  cairn.closeWorking();
  await project.cleanup();
});

describe('tools/list', () => {
  it('lists the twenty-two tools with strict input schemas, output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(22);
    expect(tools.map((tool) => tool.name)).toEqual([...MEMORY_TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.memory_add?.inputSchema.required).toEqual(['text']);
    expect(Object.keys(byName.memory_add?.inputSchema.properties ?? {})).toEqual([
      'text',
      'category',
      'review',
      'source',
    ]);
    expect(byName.memory_search?.inputSchema.required).toEqual(['query']);
    expect(byName.memory_add?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
    expect(byName.memory_replace?.annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.memory_remove?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.memory_expand?.inputSchema.required).toEqual(['nodeId', 'agentId']);
    expect(byName.memory_threads?.inputSchema.required).toBeUndefined();
    expect(byName.memory_thread_head?.inputSchema.required).toEqual(['agentId', 'threadKey']);
    expect(byName.memory_session_context?.inputSchema.required).toEqual(['agentId', 'sessionKey']);
    expect(byName.memory_session_context?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    const readOnly = [
      'memory_get',
      'memory_list',
      'memory_search',
      'memory_read_head',
      'memory_expand',
      'memory_threads',
      'memory_thread_head',
    ];
    for (const name of readOnly) {
      expect(byName[name]?.annotations, name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
      });
    }
  });
});

describe('memory_add', () => {
  it('created: writes a unit to the daily file; text content is the same JSON', async () => {
    const { result, text, structured } = await call('memory_add', {
      text: 'We deploy with pnpm deploy --prod from the release branch.',
      category: 'decision',
      source: 'mcp-test',
    });
    expect(result.isError).toBeFalsy();
    expect(structured).toMatchObject({
      action: 'created',
      memoryId: expect.stringMatching(/^UNIT:[0-9a-f-]{36}$/),
      kind: 'UNIT',
      path: '2026-04-22.md',
      category: 'decision',
    });
    expect(JSON.parse(text)).toEqual(structured);
    const daily = await readFile(join(project.root, DAILY), 'utf8');
    expect(daily).toContain(structured.memoryId);
    expect(daily).toContain('We deploy with pnpm deploy --prod from the release branch.');
  });

  it('duplicate: names the existing unit and writes nothing', async () => {
    const first = await call('memory_add', { text: 'The staging database is Postgres 16.' });
    const before = await snapshotTree(project.root);
    const { result, structured } = await call('memory_add', {
      text: 'The staging database is Postgres 16.',
    });
    expect(result.isError).toBeFalsy();
    expect(structured).toMatchObject({
      action: 'duplicate',
      existing: { memoryId: first.structured.memoryId, kind: 'UNIT', path: '2026-04-22.md' },
    });
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('failed: a tool error carrying the code, and nothing written', async () => {
    const before = await snapshotTree(project.root);
    const { result, text, structured } = await call('memory_add', { text: '   ' });
    expect(result.isError).toBe(true);
    expect(structured).toMatchObject({ action: 'failed', error: 'text_required' });
    expect(text).toContain('text_required');
    expect(await snapshotTree(project.root)).toEqual(before);
  });
});

describe('memory_replace, memory_remove, memory_get, memory_list', () => {
  it('replaces, gets, lists and removes a unit by id', async () => {
    const { structured: added } = await call('memory_add', {
      text: 'Use tabs for indentation.',
      category: 'preference',
    });
    const replaced = await call('memory_replace', {
      memoryId: added.memoryId,
      text: 'Use two spaces for indentation.',
    });
    expect(replaced.structured).toMatchObject({
      action: 'replaced',
      memoryId: added.memoryId,
      category: 'preference',
      text: 'Use two spaces for indentation.',
    });
    const got = await call('memory_get', { memoryId: added.memoryId });
    expect(got.structured.memory).toMatchObject({
      memoryId: added.memoryId,
      kind: 'UNIT',
      text: 'Use two spaces for indentation.',
    });
    await call('memory_add', { text: 'The API gateway is Kong.', category: 'fact' });
    const listed = await call('memory_list', { category: 'preference' });
    expect(listed.structured.units?.map((unit: { memoryId: string }) => unit.memoryId)).toEqual([
      added.memoryId,
    ]);
    expect((await call('memory_list', {})).structured.units).toHaveLength(2);

    const removed = await call('memory_remove', { memoryId: added.memoryId });
    expect(removed.structured).toMatchObject({
      action: 'removed',
      memoryId: added.memoryId,
      path: '2026-04-22.md',
    });
    const again = await call('memory_remove', { memoryId: added.memoryId });
    expect(again.result.isError).toBe(true);
    expect(again.structured).toMatchObject({ action: 'failed', error: 'not_found' });
  });

  it('errors carry the Cairn code: NOT_FOUND, INVALID_INPUT, not_mutable', async () => {
    const missing = await call('memory_get', {
      memoryId: 'UNIT:00000000-0000-4000-8000-000000000000',
    });
    expect(missing.result.isError).toBe(true);
    expect(missing.structured.error).toMatchObject({ code: 'NOT_FOUND', hint: expect.any(String) });
    expect(JSON.parse(missing.text)).toEqual(missing.structured);

    const malformed = await call('memory_get', { memoryId: 'bogus' });
    expect(malformed.structured.error?.code).toBe('INVALID_INPUT');
    const badDate = await call('memory_list', { since: 'not a date' });
    expect(badDate.structured.error?.code).toBe('INVALID_INPUT');

    const raw = await call('memory_replace', { memoryId: 'RAW:MEMORY.md#L1-L1', text: 'new text' });
    expect(raw.result.isError).toBe(true);
    expect(raw.structured).toMatchObject({ action: 'failed', error: 'not_mutable' });
  });
});

describe('memory_search and memory_read_head', () => {
  it('finds units and plain markdown; a RAW hit is readable and not mutable', async () => {
    await cairn.write('# Memory\n\nThe nightly backup runs at 02:00 UTC on the ops host.\n');
    const { structured: unit } = await call('memory_add', {
      text: 'Backups are encrypted with age before upload.',
    });
    const all = await call('memory_search', { query: 'backup' });
    expect(all.result.isError).toBeFalsy();
    const ids = all.structured.results?.map((hit: { memoryId?: string }) => hit.memoryId);
    expect(ids).toContain(unit.memoryId);
    const rawHit = all.structured.results?.find((hit: { kind?: string }) => hit.kind === 'RAW');
    expect(rawHit).toMatchObject({
      path: 'MEMORY.md',
      snippet: expect.stringContaining('backup'),
      memoryId: `RAW:MEMORY.md#L${rawHit?.startLine}-L${rawHit?.endLine}`,
    });

    const onlyUnits = await call('memory_search', {
      query: 'backup',
      limit: 5,
      filters: { kind: ['UNIT'] },
    });
    expect(
      onlyUnits.structured.results?.every((hit: { kind?: string }) => hit.kind === 'UNIT'),
    ).toBe(true);

    const rawGet = await call('memory_get', { memoryId: rawHit?.memoryId });
    expect(rawGet.structured.memory?.text).toContain('02:00 UTC');
    const rawRemove = await call('memory_remove', { memoryId: rawHit?.memoryId });
    expect(rawRemove.structured).toMatchObject({ action: 'failed', error: 'not_mutable' });
  });

  it('reads MEMORY.md and its head', async () => {
    const { result, structured } = await call('memory_read_head');
    expect(result.isError).toBeFalsy();
    const memory = await readFile(join(project.root, '.cairn', 'memory', 'MEMORY.md'), 'utf8');
    expect(structured).toMatchObject({ exists: true, content: memory, head: expect.any(String) });
  });
});
