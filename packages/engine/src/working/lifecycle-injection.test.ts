import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HEAD_END_MARKER, HEAD_START_MARKER, memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { estimateCounter, PACK_START_MARKER } from '../packs';
import { PACK_RECEIPTS_KEPT } from './head-sessions';
import { HeadStore } from './head-store';
import { lastPackReceipts } from './last-pack-receipts';

let project: TempProject;
const opened: Cairn[] = [];
let clock = 0;
beforeEach(async () => {
  project = await makeTempProject();
  clock = Date.parse('2026-05-01T09:00:00.000Z');
});
afterEach(async () => {
  for (const cairn of opened.splice(0)) cairn.closeWorking();
  await project.cleanup();
});

async function open(contextBudgetTokens?: number): Promise<Cairn> {
  const cairn = await openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: {
      timezone: 'UTC',
      ...(contextBudgetTokens === undefined ? {} : { memory: { contextBudgetTokens } }),
    },
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
  opened.push(cairn);
  await cairn.init();
  return cairn;
}

const A = { agentId: 'claude', harness: 'claude-code' };
const tokens = (text: string) => estimateCounter.count(text);

/** A memory head of 400 lines and a thread head at its limits: far more than any budget. */
async function hugeHeads(cairn: Cairn, threadKey: string) {
  const file = join(memoryWorkspacePath(project.root), 'MEMORY.md');
  const lines = Array.from(
    { length: 400 },
    (_, i) => `- \`cairn.branch-${i}\`: deploy step ${i} goes through kestrel-${i}`,
  );
  const before = await readFile(file, 'utf8');
  const start = before.indexOf(HEAD_START_MARKER) + HEAD_START_MARKER.length;
  const region = `\n### Active threads\n${lines.join('\n')}\n`;
  await writeFile(
    file,
    before.slice(0, start) + region + before.slice(before.indexOf(HEAD_END_MARKER)),
  );
  const heads = new HeadStore(project.root);
  const long = (what: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${what} ${i}: ${'kestrel rollout detail '.repeat(9)}`);
  heads.threads.putThread({
    agentId: 'claude',
    threadKey,
    status: `Rolling out kestrel. ${'Status detail. '.repeat(14)}`,
    decisions: long('decision', 12),
    openLoops: long('loop', 10),
    nextAction: 'Finish the kestrel rollout',
    lineage: [],
    sessions: 3,
    updatedAt: '2026-05-01T08:00:00.000Z',
  });
  heads.close();
  for (let i = 0; i < 30; i += 1) {
    await cairn.add({
      text: `Kestrel rollout fact ${i}: ${'the kestrel cluster needs care '.repeat(6)}`,
      review: 'approved',
    });
  }
}

describe('hook injection as a context pack', () => {
  it.each([150, 400, 2000])(
    'never exceeds a budget of %i tokens at any event, with a huge head and many units',
    async (budget) => {
      const cairn = await open(budget);
      await hugeHeads(cairn, 'topic-kestrel');
      const ids = {
        ...A,
        sessionKey: `s-${budget}`,
        cwd: project.root,
        threadKey: 'topic-kestrel',
      };
      const injected = [
        (await cairn.lifecycle.sessionStart(ids)).inject,
        (await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'kestrel rollout fact 7?' }))
          .inject,
        (await cairn.lifecycle.preCompaction({ ...ids, trigger: 'auto' })).inject,
        (await cairn.lifecycle.compactionComplete({ ...ids, summary: 'Kestrel half rolled out.' }))
          .inject,
        (await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'and the kestrel cluster?' }))
          .inject,
      ];
      // 150 tokens hardly hold the frame: nothing may be injected, but nothing overflows.
      if (budget >= 400) expect(injected[0]).toContain('cairn.branch-0');
      for (const text of injected) expect(tokens(text)).toBeLessThanOrEqual(budget);
      const receipts = lastPackReceipts(project.root, { limit: 10 });
      expect(receipts.length).toBeGreaterThanOrEqual(budget >= 400 ? 3 : 1);
      for (const receipt of receipts) {
        expect(receipt.budgetTokens).toBe(budget);
        expect(receipt.tokens).toBeLessThanOrEqual(budget);
        expect(receipt.pack.budget.used).toBeLessThanOrEqual(budget);
      }
    },
  );

  it('shows an item once per epoch: the next prompt reports it as already shown', async () => {
    const cairn = await open();
    const unit = await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
    if (unit.action !== 'created') throw new Error('seed failed');
    const ids = { ...A, sessionKey: 's1', cwd: project.root };
    await cairn.lifecycle.sessionStart(ids);
    const first = await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'kestrel-stage name?' });
    expect(first.inject).toContain('kestrel-stage');
    const [started] = lastPackReceipts(project.root);
    expect(first.inject).toContain(PACK_START_MARKER);
    expect(first.inject).toContain(started!.receiptId);
    expect(started!.pack.items.map((item) => item.id)).toContain(unit.memoryId);

    const again = await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'kestrel-stage?' });
    expect(again.inject).toBe('');
    // Nothing shown, nothing stored: the last receipt is still the first prompt's.
    expect(lastPackReceipts(project.root)[0]!.receiptId).toBe(started!.receiptId);

    await cairn.add({ text: 'The kestrel-stage cluster is rebuilt on Mondays.' });
    const prompt = await cairn.lifecycle.userPromptSubmit({
      ...ids,
      prompt: 'kestrel-stage when?',
    });
    expect(prompt.inject).toContain('rebuilt on Mondays');
    expect(prompt.inject).not.toContain('is called kestrel-stage');
    const [prompted] = lastPackReceipts(project.root, { sessionKey: 's1' });
    expect(prompted).toMatchObject({ event: 'user-prompt-submit', sessionKey: 's1' });
    expect(prompt.inject).toContain(prompted!.receiptId);
    expect(prompted!.pack.excluded).toContainEqual(
      expect.objectContaining({ id: unit.memoryId, reason: 'already-shown' }),
    );
  });

  it('pins the memory head and the thread head as derived history items', async () => {
    const cairn = await open();
    const ids = { ...A, sessionKey: 's1', cwd: project.root, threadKey: 'topic-billing' };
    await cairn.lifecycle.sessionStart(ids);
    await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'We decided to use Stripe.' });
    await cairn.lifecycle.sessionEnd(ids);
    const next = await cairn.lifecycle.sessionStart({ ...ids, sessionKey: 's2' });
    const [receipt] = lastPackReceipts(project.root);
    const heads = receipt!.pack.items.filter((item) => item.provenance.kind === 'head');
    // The thread head says its facts first; with one thread the memory head says nothing
    // more (its status, next action and lineage are the thread's) and is left out.
    expect(heads.map((item) => item.id)).toEqual(['head:thread:topic-billing']);
    expect(receipt!.pack.excluded).toContainEqual(
      expect.objectContaining({
        id: 'head:memory',
        reason: 'duplicate',
        duplicateOf: 'head:thread:topic-billing',
      }),
    );
    const threadHead = heads[0]!;
    expect(threadHead.provenance.file).toBe('.cairn/memory/threads/claude.topic-billing.md');
    for (const head of heads)
      expect(head).toMatchObject({ plane: 'history', trustClass: 'derived' });
    expect(next.inject).toContain('Status:');
  });

  it('names a thread head by the file the head writer wrote, slugged agent id included', async () => {
    const cairn = await open();
    const ids = {
      agentId: 'Claude Code',
      harness: 'claude-code',
      sessionKey: 's1',
      cwd: project.root,
      threadKey: 'topic-billing',
    };
    await cairn.lifecycle.sessionStart(ids);
    await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'We decided to use Stripe.' });
    await cairn.lifecycle.sessionEnd(ids);
    await cairn.lifecycle.sessionStart({ ...ids, sessionKey: 's2' });
    const [receipt] = lastPackReceipts(project.root);
    const head = receipt!.pack.items.find((item) => item.id === 'head:thread:topic-billing');
    expect(head?.provenance.file).toBe('.cairn/memory/threads/claude-code.topic-billing.md');
    await expect(readFile(join(project.root, head!.provenance.file!), 'utf8')).resolves.toContain(
      '# Thread topic-billing',
    );
  });

  it(`keeps the last ${PACK_RECEIPTS_KEPT} receipts, newest first`, async () => {
    const cairn = await open();
    await cairn.add({ text: 'Kestrel is the deploy target.' });
    for (let i = 0; i < PACK_RECEIPTS_KEPT + 5; i += 1) {
      const ids = { ...A, sessionKey: `s${i}`, cwd: project.root };
      await cairn.lifecycle.sessionStart(ids);
      await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'which deploy target?' });
    }
    const all = lastPackReceipts(project.root, { limit: 1000 });
    expect(all).toHaveLength(PACK_RECEIPTS_KEPT);
    expect(all[0]!.sessionKey).toBe(`s${PACK_RECEIPTS_KEPT + 4}`);
    expect(lastPackReceipts(project.root, { sessionKey: 's0' })).toEqual([]);
  });
});
