import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, connectedProjectPerTest } from './test-client';

/**
 * Every tool that takes an id takes a unique start of one (docs/MCP.md
 * "Ids"), and answers a start that several ids share with a typed refusal
 * that lists them and changes nothing.
 */
const t = connectedProjectPerTest();

type Answer = Record<string, unknown> & {
  error?: string | { code: string; message: string };
  message?: string;
  action?: string;
  memoryId?: string;
  memory?: { memoryId: string; text: string };
  node?: { id: string };
  outcome?: string;
  proposals?: { id: string }[];
};
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const { structured, isError } = await callTool(t.client, name, args);
  return { answer: structured as Answer, isError };
};

/** Two units whose ids share their first eight hex digits (written as a merge could leave them). */
async function twoUnitsSharingAStart(): Promise<{ ids: [string, string]; file: string }> {
  const a = await t.cairn.add({ text: 'Releases are cut from the main branch every Tuesday.' });
  const b = await t.cairn.add({ text: 'The staging database is reset every night at two.' });
  if (a.action !== 'created' || b.action !== 'created') throw new Error('not added');
  const ids: [string, string] = [
    'UNIT:abcd0001-0000-4000-8000-000000000001',
    'UNIT:abcd0002-0000-4000-8000-000000000002',
  ];
  const file = join(t.project.root, '.cairn', 'memory', a.path);
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(a.memoryId, ids[0]).replace(b.memoryId, ids[1]));
  return { ids, file };
}

describe('ids by a unique start', () => {
  it('memory_get, memory_replace, memory_review and memory_remove: a unique start works, a shared one is refused', async () => {
    const { ids, file } = await twoUnitsSharingAStart();
    const [first, second] = ids;
    const before = await readFile(file, 'utf8');

    const got = await call('memory_get', { memoryId: 'UNIT:abcd0001' });
    expect(got.answer.memory?.memoryId).toBe(first);
    const untagged = await call('memory_get', { memoryId: 'abcd0002' });
    expect(untagged.answer.memory?.memoryId).toBe(second);

    const shared = await call('memory_get', { memoryId: 'UNIT:abcd' });
    expect(shared.isError).toBe(true);
    const error = shared.answer.error as { code: string; message: string };
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toContain(first);
    expect(error.message).toContain(second);

    for (const [name, args] of [
      ['memory_replace', { memoryId: 'abcd', text: 'Releases are cut on Wednesdays.' }],
      ['memory_review', { action: 'deprecate', memoryId: 'UNIT:abcd' }],
      ['memory_remove', { memoryId: 'UNIT:abcd' }],
    ] as const) {
      const refused = await call(name, args);
      expect(refused.isError, name).toBe(true);
      expect(refused.answer, name).toMatchObject({ action: 'failed', error: 'conflict' });
      expect(refused.answer.message, name).toContain(first);
      expect(refused.answer.message, name).toContain(second);
    }
    // Nothing was changed by the refusals.
    expect((await t.cairn.list()).map((unit) => [unit.memoryId, unit.review])).toEqual([
      [first, 'approved'],
      [second, 'approved'],
    ]);
    expect(await readFile(file, 'utf8')).toBe(before);

    const replaced = await call('memory_replace', {
      memoryId: 'UNIT:abcd0001',
      text: 'Releases are cut from the main branch every Wednesday.',
    });
    expect(replaced.answer).toMatchObject({ action: 'replaced', memoryId: first });
    const reviewed = await call('memory_review', { action: 'deprecate', memoryId: 'abcd0002' });
    expect(reviewed.answer).toMatchObject({ action: 'reviewed', memoryId: second });
    const removed = await call('memory_remove', { memoryId: 'UNIT:abcd0002' });
    expect(removed.answer).toMatchObject({ action: 'removed', memoryId: second });
  });

  it('memory_expand and memory_run_digest take the start of a node id', async () => {
    const session = { agentId: 'claude', sessionKey: 's1' };
    await t.cairn.lifecycle.userPromptSubmit({ ...session, prompt: 'Fix the flaky upload test' });
    const { nodeId } = await t.cairn.lifecycle.sessionEnd(session);
    const start = nodeId!.slice(0, 'node:'.length + 8);
    const expanded = await call('memory_expand', { nodeId: start, agentId: 'claude' });
    expect(expanded.answer.node?.id).toBe(nodeId);
    const listed = await call('memory_run_digest', { agentId: 'claude' });
    const [run] = listed.answer.runs as { nodeId: string; runId: string }[];
    const digest = await call('memory_run_digest', {
      run: run!.nodeId.slice(0, 'node:'.length + 8),
      agentId: 'claude',
    });
    expect(digest.answer).toMatchObject({ digest: { runId: 's1' } });
    const unknown = await call('memory_expand', { nodeId: 'node:ffff', agentId: 'claude' });
    expect(unknown.isError).toBe(true);
    expect((unknown.answer.error as { code: string }).code).toMatch(/NOT_FOUND|INVALID_INPUT/);
  });

  it('memory_proposal_decide takes the start of a proposal id', async () => {
    for (const text of [
      'Install dependencies with pnpm in this repository; npm is not used here.',
      'In this repository dependencies are installed with pnpm, never with npm.',
    ]) {
      expect((await t.cairn.add({ text })).action).toBe('created');
    }
    await call('memory_insights_run');
    const [proposal] = (await call('memory_proposals')).answer.proposals!;
    const decided = await call('memory_proposal_decide', {
      id: proposal!.id.slice(0, 'P-'.length + 4),
      decision: 'reject',
    });
    expect(decided.answer).toMatchObject({ outcome: 'rejected', proposal: { id: proposal!.id } });
    const none = `P-${proposal!.id[2] === 'f' ? '0' : 'f'}000`;
    const unknown = await call('memory_proposal_decide', { id: none, decision: 'reject' });
    expect((unknown.answer.error as { code: string }).code).toBe('NOT_FOUND');
  });
});
