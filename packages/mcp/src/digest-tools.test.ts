import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectInMemory } from './test-client';

let project: TempProject;
let cairn: Cairn;
let client: Client;

beforeEach(async () => {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  cairn = await openCairn(project.root, {
    env: { HOME: home },
    homeDir: home,
    overrides: { timezone: 'UTC' },
  });
  await cairn.init();
  client = await connectInMemory(cairn);
});
afterEach(async () => {
  await client.close();
  cairn.closeWorking();
  await project.cleanup();
});

async function recordRun(sessionKey: string) {
  const ids = { agentId: 'opencode', sessionKey };
  await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root });
  await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'Run the migrations first' });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'bash',
    input: { command: 'make migrate' },
    output: 'ok',
  });
  await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
}

describe('memory_run_digest', () => {
  it('lists recent runs and reads one digest with its markdown', async () => {
    await recordRun('oc-1');
    const listed = await callTool(client, 'memory_run_digest', {});
    expect(listed.isError).toBeFalsy();
    const runs = (listed.structured as { runs: { runId: string; nodeId: string }[] }).runs;
    expect(runs.map((run) => run.runId)).toEqual(['oc-1']);
    const one = await callTool(client, 'memory_run_digest', { run: 'oc-1', agentId: 'opencode' });
    const structured = one.structured as {
      digest: { intent: string; outcome: string };
      markdown: string;
    };
    expect(structured.digest).toMatchObject({
      intent: 'Run the migrations first',
      outcome: 'succeeded',
    });
    expect(structured.markdown).toContain('# Run oc-1 (succeeded)');
  });

  it('answers NOT_FOUND for an unknown run and INVALID_INPUT for a bad agent id', async () => {
    await recordRun('oc-1');
    const missing = await callTool(client, 'memory_run_digest', { run: 'nope' });
    expect(missing.isError).toBe(true);
    expect((missing.structured as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const bad = await callTool(client, 'memory_run_digest', { run: 'oc-1', agentId: '' });
    expect((bad.structured as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    const thread = await callTool(client, 'memory_run_digest', { threadKey: 'no spaces allowed' });
    expect((thread.structured as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
  });
});

describe('memory_review', () => {
  it('lists drafts and approves one, keeping its id', async () => {
    const added = await cairn.add({ text: 'Run make migrate before the tests.', review: 'draft' });
    const memoryId = (added as { memoryId: string }).memoryId;
    const listed = await callTool(client, 'memory_review', {});
    expect(
      (listed.structured as { drafts: { memoryId: string }[] }).drafts.map((d) => d.memoryId),
    ).toEqual([memoryId]);
    const approved = await callTool(client, 'memory_review', { action: 'approve', memoryId });
    expect(approved.structured).toMatchObject({ action: 'reviewed', memoryId, review: 'approved' });
    expect((await cairn.get(memoryId)).review).toBe('approved');
    const after = await callTool(client, 'memory_review', { action: 'list' });
    expect((after.structured as { drafts: unknown[] }).drafts).toEqual([]);
  });

  it('deprecates, and refuses an unknown id or a missing one', async () => {
    const added = await cairn.add({
      text: 'Use port 5433 for the test database.',
      review: 'draft',
    });
    const memoryId = (added as { memoryId: string }).memoryId;
    const deprecated = await callTool(client, 'memory_review', { action: 'deprecate', memoryId });
    expect(deprecated.structured).toMatchObject({ review: 'deprecated', previous: 'draft' });
    const unknown = await callTool(client, 'memory_review', {
      action: 'approve',
      memoryId: 'UNIT:11111111-1111-4111-8111-111111111111',
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.structured).toMatchObject({ action: 'failed', error: 'not_found' });
    const missing = await callTool(client, 'memory_review', { action: 'approve' });
    expect((missing.structured as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
  });
});
