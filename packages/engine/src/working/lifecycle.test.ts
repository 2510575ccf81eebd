import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnIndexPath, cairnStatePath, memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openLineageStore } from '../lineage';
import { currentHeadRegion } from './head-render';

let project: TempProject;
let cairn: Cairn;
let clock = 0;
beforeEach(async () => {
  project = await makeTempProject();
  clock = Date.parse('2026-05-01T09:00:00.000Z');
  cairn = await open();
  await cairn.init();
});
afterEach(async () => {
  cairn.closeWorking();
  await project.cleanup();
});

async function open(): Promise<Cairn> {
  return openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC' },
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
}
const A = { agentId: 'claude', sessionKey: 's1', harness: 'claude-code', cwd: '' };

describe('lifecycle', () => {
  it('captures prompts, recalls a unit once per epoch, and again after compaction', async () => {
    await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
    // A new thread has no status to ask with: session start shows no unit (not the newest ones).
    const start = await cairn.lifecycle.sessionStart({ ...A, cwd: project.root });
    expect(start.inject).not.toContain('kestrel-stage');
    const first = await cairn.lifecycle.userPromptSubmit({
      ...A,
      prompt: 'deploy to kestrel-stage please',
    });
    expect(first.inject).toContain('kestrel-stage');
    const again = await cairn.lifecycle.userPromptSubmit({ ...A, prompt: 'kestrel-stage again' });
    expect(again.inject).toBe('');
    const compaction = await cairn.lifecycle.compactionComplete({
      ...A,
      summary: 'We decided to deploy kestrel-stage on Friday. Next: write the runbook.',
    });
    expect(compaction.nodeId).toMatch(/^node:/);
    const after = await cairn.lifecycle.userPromptSubmit({ ...A, prompt: 'kestrel-stage status?' });
    expect(after.inject).toContain('kestrel-stage');
    const expanded = cairn.expand(compaction.nodeId!, 'claude');
    expect(expanded.node).toMatchObject({ kind: 'compaction', source: 'harness' });
    expect(expanded.node.text).toContain('We decided to deploy kestrel-stage on Friday.');
    expect(expanded.transcript?.entries.map((e) => e.text)).toContain(
      'deploy to kestrel-stage please',
    );
  });

  it('session end writes a summary node beside the compaction node and refreshes Tier 2 and Tier 1', async () => {
    await cairn.lifecycle.sessionStart({ ...A, cwd: project.root, threadKey: 'topic-billing' });
    await cairn.lifecycle.userPromptSubmit({
      ...A,
      prompt: 'We decided to use Stripe for billing. Next step: wire the webhook.',
    });
    await cairn.lifecycle.toolUse({
      ...A,
      toolName: 'Bash',
      input: { command: 'pnpm test' },
      output: 'ok',
    });
    const compaction = await cairn.lifecycle.compactionComplete({
      ...A,
      summary: 'Billing work so far: Stripe chosen.',
    });
    const end = await cairn.lifecycle.sessionEnd({ ...A, reason: 'exit' });
    expect(end.nodeId).toMatch(/^node:/);
    expect(end.nodeId).not.toBe(compaction.nodeId);
    expect(cairn.expand(end.nodeId!, 'claude').node.kind).toBe('session_summary');
    const head = cairn.threadHead('claude', 'topic-billing');
    expect(head.state.lineage).toEqual(expect.arrayContaining([end.nodeId, compaction.nodeId]));
    const threadFile = await readFile(
      join(memoryWorkspacePath(project.root), 'threads', 'claude.topic-billing.md'),
      'utf8',
    );
    expect(threadFile).toContain('# Thread topic-billing');
    // Tier 1: this clone's head names the thread; MEMORY.md holds the team head.
    expect(cairn.localHead()).toContain('`topic-billing`');
    const memory = await readFile(join(memoryWorkspacePath(project.root), 'MEMORY.md'), 'utf8');
    expect(currentHeadRegion(memory)).toContain('No approved decisions or preferences yet.');
    expect(memory).not.toContain('topic-billing');
    expect(memory).toContain('## Notes');
  });

  it('keeps threads apart: session start injects only its own thread', async () => {
    const b = { agentId: 'claude', sessionKey: 's2', harness: 'claude-code', cwd: project.root };
    await cairn.lifecycle.sessionStart({ ...A, cwd: project.root, threadKey: 'topic-alpha' });
    await cairn.lifecycle.userPromptSubmit({
      ...A,
      prompt: 'Alpha secret: the launch codeword is bluebird.',
    });
    await cairn.lifecycle.sessionEnd(A);
    const start = await cairn.lifecycle.sessionStart({ ...b, threadKey: 'topic-beta' });
    expect(start.inject).not.toContain('bluebird');
    expect(start.inject).not.toContain('## This thread: topic-alpha');
    const recall = await cairn.lifecycle.userPromptSubmit({
      ...b,
      prompt: 'what is the launch codeword',
    });
    expect(recall.inject).not.toContain('bluebird');
    const sameThread = { ...b, sessionKey: 's3', threadKey: 'topic-alpha' };
    await cairn.lifecycle.sessionStart(sameThread);
    const inThread = await cairn.lifecycle.userPromptSubmit({
      ...sameThread,
      prompt: 'what is the launch codeword',
    });
    expect(inThread.inject).toContain('bluebird');
  });

  it('two agents with the same session key never mix', async () => {
    const other = { ...A, agentId: 'codex' };
    await cairn.lifecycle.userPromptSubmit({ ...A, prompt: 'claude prompt' });
    await cairn.lifecycle.userPromptSubmit({ ...other, prompt: 'codex prompt' });
    const end = await cairn.lifecycle.sessionEnd(A);
    const expanded = cairn.expand(end.nodeId!, 'claude');
    expect(expanded.transcript?.entries.map((e) => e.text)).toEqual(['claude prompt']);
    expect(() => cairn.expand(end.nodeId!, 'codex')).toThrowError(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('rejects bad input with INVALID_INPUT and writes nothing', async () => {
    const before = await snapshotTree(project.root);
    await expect(
      cairn.lifecycle.userPromptSubmit({ agentId: '', sessionKey: 's', prompt: 'x' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      cairn.lifecycle.sessionStart({ ...A, threadKey: '../x' } as never),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('fails open: an internal failure is logged and reported by doctor, never thrown', async () => {
    await mkdir(join(cairnStatePath(project.root), 'lineage.db'), { recursive: true });
    const result = await cairn.lifecycle.userPromptSubmit({ ...A, prompt: 'hello' });
    expect(result.inject).toBe('');
    expect(result.failed?.code).toBeDefined();
    expect(cairn.workingHealth().failures.at(-1)).toMatchObject({
      event: 'user-prompt-submit',
      agentId: 'claude',
    });
  });

  it('deleting .cairn/index/ loses no lineage, heads or units', async () => {
    await cairn.add({ text: 'Keep this unit forever.' });
    await cairn.lifecycle.userPromptSubmit({ ...A, prompt: 'Keep this unit forever please' });
    const end = await cairn.lifecycle.sessionEnd(A);
    await rm(cairnIndexPath(project.root), { recursive: true, force: true });
    const reopened = await open();
    expect(reopened.expand(end.nodeId!, 'claude').node.id).toBe(end.nodeId);
    expect(reopened.threads('claude')).toHaveLength(1);
    expect((await reopened.search({ query: 'unit forever' }))[0]?.kind).toBe('UNIT');
    reopened.closeWorking();
  });

  it('keeps a tool event whole in the lineage, however long its output (Tier 3 is lossless)', async () => {
    const output = Array.from({ length: 3000 }, (_, i) => `line ${i}: PASS src/m${i}.test.ts`)
      .concat('FAIL src/payments.test.ts: expected 200, got 502')
      .join('\n');
    const input = { command: 'pnpm test', cwd: '/repo' };
    await cairn.lifecycle.toolUse({ ...A, toolName: 'Bash', input, output });
    cairn.closeWorking();
    const lineage = openLineageStore(project.root);
    const entry = lineage.getTranscript('claude', 's1')?.entries[0];
    lineage.close();
    expect(entry?.text).toBe(`${JSON.stringify(input)}\n→ ${output}`);
  });
});

describe('condensation through the lifecycle', () => {
  it('condenses a thread past the threshold, keeping every source reachable', async () => {
    const small = await openCairn(project.root, {
      env: {},
      homeDir: join(project.root, 'home'),
      overrides: { timezone: 'UTC', lineage: { condenseThreshold: 3 } },
      now: () => {
        clock += 1000;
        return new Date(clock);
      },
    });
    const ends: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const ids = { agentId: 'claude', sessionKey: `c${i}`, threadKey: 'topic-cond' };
      await small.lifecycle.sessionStart({ ...ids, cwd: project.root });
      await small.lifecycle.userPromptSubmit({
        ...ids,
        prompt: `Step ${i}: we decided to keep going.`,
      });
      ends.push((await small.lifecycle.sessionEnd(ids)).nodeId!);
    }
    const parents = ends.map((id) => small.expand(id, 'claude').parents);
    const condensed = parents.flat().filter((node) => node.kind === 'condensed');
    expect(condensed.length).toBeGreaterThan(0);
    const children = small.expand(condensed[0]!.id, 'claude').children.map((node) => node.id);
    expect(children.every((id) => ends.includes(id))).toBe(true);
    small.closeWorking();
  });
});

describe('the head after many sessions', () => {
  it('stays within the token budget after 500 sessions', { timeout: 120_000 }, async () => {
    for (let i = 0; i < 500; i += 1) {
      const ids = {
        agentId: `agent-${i % 3}`,
        sessionKey: `long-${i}`,
        threadKey: `topic-${i % 25}`,
      };
      await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root });
      await cairn.lifecycle.userPromptSubmit({
        ...ids,
        prompt: `We decided to handle case ${i} with strategy ${i % 7}. Next step: verify case ${i}. I'll report back on ${i}.`,
      });
      const end = await cairn.lifecycle.sessionEnd(ids);
      expect(end.failed).toBeUndefined();
    }
    const region = cairn.localHead()!;
    expect(Math.ceil(region.length / 4)).toBeLessThanOrEqual(1200);
    expect(region).toContain('### Active threads');
    const memory = await readFile(join(memoryWorkspacePath(project.root), 'MEMORY.md'), 'utf8');
    expect(memory).toContain('## Notes');
  });
});
