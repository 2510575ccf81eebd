import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectInMemory } from './test-client';

let project: TempProject;
let cairn: Cairn;
let client: Client;
let clock = 0;

const call = (name: string, args?: Record<string, unknown>) => callTool(client, name, args);
const AGENT = 'claude';
const PROMPT = 'Move the kestrel-stage deploy to Friday and write the runbook first.';

beforeEach(async () => {
  project = await makeTempProject();
  clock = Date.parse('2026-05-01T09:00:00.000Z');
  const home = join(project.root, 'home');
  cairn = await openCairn(project.root, {
    env: { HOME: home },
    homeDir: home,
    overrides: { timezone: 'UTC' },
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
  await cairn.init();
  client = await connectInMemory(cairn);
});

afterEach(async () => {
  await client.close();
  cairn.closeWorking();
  await project.cleanup();
});

/** One finished session through the lifecycle API: a transcript, a summary node and a thread head. */
async function finishedSession(): Promise<{ nodeId: string; threadKey: string }> {
  const session = { agentId: AGENT, sessionKey: 's1' };
  await cairn.lifecycle.userPromptSubmit({ ...session, prompt: PROMPT });
  const { nodeId, failed } = await cairn.lifecycle.sessionEnd(session);
  expect(failed).toBeUndefined();
  expect(nodeId).toMatch(/^node:/);
  const [thread] = cairn.threads(AGENT);
  return { nodeId: nodeId!, threadKey: thread!.threadKey };
}

describe('memory_expand', () => {
  it('drills down into a session summary and its transcript', async () => {
    const { nodeId, threadKey } = await finishedSession();
    const { result, text, structured } = await call('memory_expand', { nodeId, agentId: AGENT });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text)).toEqual(structured);
    expect(structured.node).toMatchObject({
      id: nodeId,
      agentId: AGENT,
      kind: 'session_summary',
      threadKey,
      sessionKey: 's1',
    });
    // The session summary and the session's run digest (docs/HISTORY.md).
    expect(structured.thread).toEqual({ threadKey, nodeCount: 2 });
    expect(structured.parents).toEqual([]);
    expect(structured.transcript?.entries.map((entry) => entry.text)).toContain(PROMPT);
    expect(structured.transcript?.entries[0]).toMatchObject({ role: 'user', clipped: false });
  });

  it('another agent, or an unknown id, gets NOT_FOUND', async () => {
    const { nodeId } = await finishedSession();
    const other = await call('memory_expand', { nodeId, agentId: 'codex' });
    expect(other.result.isError).toBe(true);
    expect(other.structured.error).toMatchObject({ code: 'NOT_FOUND' });
    expect(other.text).not.toContain(PROMPT);
    const unknown = await call('memory_expand', {
      nodeId: 'node:00000000-0000-4000-8000-000000000000',
      agentId: AGENT,
    });
    expect(unknown.structured.error?.code).toBe('NOT_FOUND');
  });
});

describe('memory_threads and memory_thread_head', () => {
  it('lists the thread head with its lineage, and reads it as state and markdown', async () => {
    const { nodeId, threadKey } = await finishedSession();
    const listed = await call('memory_threads');
    expect(listed.result.isError).toBeFalsy();
    expect(listed.structured.threads).toEqual([
      {
        agentId: AGENT,
        threadKey,
        status: expect.any(String),
        nextAction: expect.any(String),
        updatedAt: expect.any(String),
        lineage: [nodeId],
      },
    ]);
    expect((await call('memory_threads', { agentId: AGENT })).structured.threads).toHaveLength(1);
    expect((await call('memory_threads', { agentId: 'codex' })).structured.threads).toEqual([]);

    const head = await call('memory_thread_head', { agentId: AGENT, threadKey });
    expect(head.result.isError).toBeFalsy();
    expect(head.structured.state).toMatchObject({
      agentId: AGENT,
      threadKey,
      lineage: [nodeId],
      sessions: 1,
    });
    expect(head.structured.markdown).toContain(`# Thread ${threadKey}`);
    expect(head.structured.markdown).toContain(nodeId);
  });

  it('an unknown thread is NOT_FOUND, a malformed key INVALID_INPUT', async () => {
    const { threadKey } = await finishedSession();
    const otherAgent = await call('memory_thread_head', { agentId: 'codex', threadKey });
    expect(otherAgent.structured.error?.code).toBe('NOT_FOUND');
    const malformed = await call('memory_thread_head', { agentId: AGENT, threadKey: '../x' });
    expect(malformed.result.isError).toBe(true);
    expect(malformed.structured.error?.code).toBe('INVALID_INPUT');
  });
});

describe('memory_session_context', () => {
  it('returns what session start injects, with the head of the thread', async () => {
    const { threadKey } = await finishedSession();
    // A session that answered leaves the thread a status: session start asks with it.
    const answered = { agentId: AGENT, sessionKey: 's1b' };
    await cairn.lifecycle.userPromptSubmit({ ...answered, prompt: PROMPT });
    await cairn.lifecycle.sessionEnd({
      ...answered,
      finalAnswer: 'The kestrel-stage deploy moves to Friday; the runbook comes first.',
    });
    // Relevant to the thread's status (the deploy it moves): session start asks with it.
    await cairn.add({
      text: 'A kestrel-stage deploy on Friday needs the on-call engineer to approve it in the release channel.',
    });
    const { result, text, structured } = await call('memory_session_context', {
      agentId: AGENT,
      sessionKey: 's2',
      harness: 'claude-code',
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(text)).toEqual(structured);
    expect(structured.inject).toContain(`head thread ${threadKey}`);
    expect(structured.inject).toContain(
      'A kestrel-stage deploy on Friday needs the on-call engineer to approve it in the release channel.',
    );
    // What it returned counts as injected in that session epoch: a repeat leaves it out.
    const again = await call('memory_session_context', { agentId: AGENT, sessionKey: 's2' });
    expect(again.structured.inject).not.toContain(`head thread ${threadKey}`);
    expect(again.structured.inject).not.toContain(
      'A kestrel-stage deploy on Friday needs the on-call engineer to approve it in the release channel.',
    );
  });

  it('records a new session in the thread it names', async () => {
    const session = { agentId: AGENT, sessionKey: 's3' };
    const fresh = await call('memory_session_context', { ...session, threadKey: 'topic-release' });
    expect(fresh.result.isError).toBeFalsy();
    expect(fresh.structured.inject).not.toContain('head thread');
    await cairn.lifecycle.userPromptSubmit({ ...session, prompt: 'Tag the release on Tuesday.' });
    await cairn.lifecycle.sessionEnd(session);
    const listed = await call('memory_threads', { agentId: AGENT });
    expect(listed.structured.threads?.map((thread) => thread.threadKey)).toEqual(['topic-release']);
  });

  it('a failure the lifecycle swallowed is a tool error with its code', async () => {
    const failing: Cairn = {
      ...cairn,
      lifecycle: {
        ...cairn.lifecycle,
        sessionStart: async () => ({
          inject: '',
          failed: { code: 'WRITE_FAILED', message: 'disk full' },
        }),
      },
    };
    const other = await connectInMemory(failing);
    const failed = await callTool(other, 'memory_session_context', {
      agentId: AGENT,
      sessionKey: 's4',
    });
    expect(failed.isError).toBe(true);
    expect(failed.structured).toEqual({
      inject: '',
      error: { code: 'WRITE_FAILED', message: 'disk full', hint: expect.any(String) },
    });
    await other.close();
  });
});
