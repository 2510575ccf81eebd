import { join } from 'node:path';
import { CairnError, MAX_KEY_CHARS, MAX_THREAD_KEY_CHARS } from '@cairn/core';
import { type Cairn, type LineageStore, openCairn, openLineageStore } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectInMemory } from './test-client';

/*
 * One rule per key (core's contracts/schemas.ts): the lifecycle, the lineage
 * store and the MCP tool inputs accept a value at the limit and refuse one
 * character more with INVALID_INPUT. The CLI flags are checked in
 * packages/cli/src/identity-flags.test.ts.
 */

let project: TempProject;
let cairn: Cairn;
let lineage: LineageStore;
let client: Client;

beforeEach(async () => {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
  await cairn.init();
  lineage = openLineageStore(project.root);
  client = await connectInMemory(cairn);
});

afterEach(async () => {
  await client.close();
  lineage.close();
  cairn.closeWorking();
  await project.cleanup();
});

const invalidInput = (run: () => unknown) =>
  expect(run).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));

async function refusedAsync(run: () => Promise<unknown>): Promise<void> {
  const error = await run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(CairnError.isInstance(error)).toBe(true);
  expect((error as CairnError).code).toBe('INVALID_INPUT');
}

async function toolRefuses(name: string, args: Record<string, unknown>, field: string) {
  const { isError, structured } = await callTool(client, name, args);
  expect(isError).toBe(true);
  expect(structured.error).toMatchObject({ code: 'INVALID_INPUT' });
  expect(structured.error?.message).toContain(field);
}

const threadKeyOf = (chars: number) => `t${'x'.repeat(chars - 1)}`;

describe(`agentId: 1 to ${MAX_KEY_CHARS} characters everywhere`, () => {
  const atLimit = 'a'.repeat(MAX_KEY_CHARS);
  const over = 'a'.repeat(MAX_KEY_CHARS + 1);

  it('lifecycle', async () => {
    await cairn.lifecycle.userPromptSubmit({ agentId: atLimit, sessionKey: 's', prompt: 'hi' });
    await refusedAsync(() =>
      cairn.lifecycle.userPromptSubmit({ agentId: over, sessionKey: 's', prompt: 'hi' }),
    );
  });

  it('lineage', () => {
    const entry = { sessionKey: 's', role: 'user' as const, text: 'hi' };
    expect(lineage.appendTranscriptEntry({ ...entry, agentId: atLimit }).seq).toBe(1);
    invalidInput(() => lineage.appendTranscriptEntry({ ...entry, agentId: over }));
  });

  it('MCP tool input', async () => {
    expect((await callTool(client, 'memory_threads', { agentId: atLimit })).isError).toBe(false);
    await toolRefuses('memory_threads', { agentId: over }, 'agentId');
  });
});

describe(`sessionKey: 1 to ${MAX_KEY_CHARS} characters everywhere`, () => {
  const atLimit = 's'.repeat(MAX_KEY_CHARS);
  const over = 's'.repeat(MAX_KEY_CHARS + 1);

  it('lifecycle', async () => {
    await cairn.lifecycle.userPromptSubmit({ agentId: 'a', sessionKey: atLimit, prompt: 'hi' });
    await refusedAsync(() =>
      cairn.lifecycle.userPromptSubmit({ agentId: 'a', sessionKey: over, prompt: 'hi' }),
    );
  });

  it('lineage', () => {
    const entry = { agentId: 'a', role: 'user' as const, text: 'hi' };
    expect(lineage.appendTranscriptEntry({ ...entry, sessionKey: atLimit }).seq).toBe(1);
    invalidInput(() => lineage.appendTranscriptEntry({ ...entry, sessionKey: over }));
  });

  it('MCP tool input', async () => {
    const args = { agentId: 'a', cwd: project.root };
    const accepted = await callTool(client, 'memory_session_context', {
      ...args,
      sessionKey: atLimit,
    });
    expect(accepted.isError).toBe(false);
    await toolRefuses('memory_session_context', { ...args, sessionKey: over }, 'sessionKey');
  });
});

describe(`threadKey: the thread key pattern, 1 to ${MAX_THREAD_KEY_CHARS} characters everywhere`, () => {
  const atLimit = threadKeyOf(MAX_THREAD_KEY_CHARS);
  const over = threadKeyOf(MAX_THREAD_KEY_CHARS + 1);

  it('lifecycle', async () => {
    const session = { agentId: 'a', sessionKey: 's' };
    await cairn.lifecycle.sessionStart({ ...session, threadKey: atLimit });
    await cairn.lifecycle.sessionEnd(session);
    expect(cairn.threads('a').map((thread) => thread.threadKey)).toEqual([atLimit]);
    await refusedAsync(() =>
      cairn.lifecycle.sessionStart({ agentId: 'a', sessionKey: 's2', threadKey: over }),
    );
  });

  it('lineage', () => {
    const entry = { agentId: 'a', sessionKey: 's', role: 'user' as const, text: 'hi' };
    expect(lineage.appendTranscriptEntry({ ...entry, threadKey: atLimit }).seq).toBe(1);
    invalidInput(() => lineage.appendTranscriptEntry({ ...entry, threadKey: over }));
    invalidInput(() => lineage.appendTranscriptEntry({ ...entry, threadKey: 'Upper' }));
  });

  it('MCP tool input', async () => {
    const known = await callTool(client, 'memory_thread_head', {
      agentId: 'a',
      threadKey: atLimit,
    });
    // Accepted by the schema: the engine answers that no such thread exists yet.
    expect(known.structured.error?.code).toBe('NOT_FOUND');
    await toolRefuses('memory_thread_head', { agentId: 'a', threadKey: over }, 'threadKey');
  });
});

describe('unit ids: UNIT:<uuid> everywhere', () => {
  const unitId = 'UNIT:00000000-0000-4000-8000-000000000000';
  const node = {
    agentId: 'a',
    kind: 'session_summary' as const,
    sessionKey: 's',
    threadKey: 'main',
    source: 'test',
    text: 'a summary',
  };

  it('lineage', () => {
    expect(lineage.addNode({ ...node, unitIds: [unitId] }).id).toMatch(/^node:/);
    invalidInput(() => lineage.addNode({ ...node, unitIds: [`${unitId}0`] }));
  });

  it('MCP tool input', async () => {
    const known = await callTool(client, 'memory_get', { memoryId: unitId });
    expect(known.structured.error?.code).toBe('NOT_FOUND');
    const malformed = await callTool(client, 'memory_get', { memoryId: `${unitId}0` });
    expect(malformed.structured.error?.code).toBe('INVALID_INPUT');
  });
});
