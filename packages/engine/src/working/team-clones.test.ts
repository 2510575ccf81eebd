import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testGitEnv } from '../history/git-test-repo.fixture';
import { openCairn } from '../index';
import { currentHeadRegion, renderHeadRegion } from './head-render';
import { emptyThreadState, foldSummary, renderThreadHead } from './thread-state';

/*
 * Two people, two clones of one repository (docs/TEAMS.md): what one
 * person's sessions render stays in their clone, MEMORY.md's region holds
 * what the team shares, and a merge of the two clones' `.cairn/memory`
 * leaves valid regions and a doctor that is ok.
 */

let temp: TempProject;
beforeEach(async () => {
  temp = await makeTempProject();
});
afterEach(() => temp.cleanup());

const day = (n: number) => () => new Date(`2026-03-${String(n).padStart(2, '0')}T10:00:00.000Z`);

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    env: testGitEnv(join(temp.root, 'git-home')),
    encoding: 'utf8',
  });
}

const open = async (root: string, who: string, now = day(1)) =>
  await openCairn(root, {
    env: {},
    homeDir: join(temp.root, `home-${who}`),
    overrides: { timezone: 'UTC' },
    now,
  });

/** One session: a prompt, a session end; returns what its start injected. */
async function session(root: string, who: string, key: string, prompt: string, now = day(1)) {
  const cairn = await open(root, who, now);
  try {
    const ids = { agentId: 'claude-code', sessionKey: key, harness: 'claude-code', cwd: root };
    const start = await cairn.lifecycle.sessionStart(ids);
    await cairn.lifecycle.userPromptSubmit({ ...ids, prompt });
    const end = await cairn.lifecycle.sessionEnd({ ...ids, reason: 'exit' });
    expect(end.failed).toBeUndefined();
    return { inject: start.inject, local: cairn.localHead() ?? '', nodeId: end.nodeId! };
  } finally {
    cairn.closeWorking();
  }
}

async function doctorOk(root: string, who: string) {
  const cairn = await open(root, who);
  try {
    const report = await cairn.doctor();
    return { ok: report.ok, findings: report.findings.filter((f) => f.severity !== 'info') };
  } finally {
    cairn.closeWorking();
  }
}

const memoryOf = (root: string) => readFile(join(root, '.cairn/memory/MEMORY.md'), 'utf8');

describe('two clones of one repository', () => {
  it("a teammate's sessions leave the author's committed memory as it was, and the two clones merge", {
    timeout: 60_000,
  }, async () => {
    // Both clones are called `proj` on `main`: the same default thread key.
    const alice = join(temp.root, 'alice', 'proj');
    const bob = join(temp.root, 'bob', 'proj');
    mkdirSync(alice, { recursive: true });
    git(alice, 'init', '-q', '-b', 'main');
    const author = await open(alice, 'alice');
    await author.init();
    await author.add({ text: 'Use pnpm, never npm, in this repository.', category: 'decision' });
    author.closeWorking();
    const a1 = await session(
      alice,
      'alice',
      'a1',
      'We decided to move billing to the queue. Next step: load test the queue.',
    );
    expect(a1.local).toContain('proj.main');
    git(alice, 'add', '-A');
    git(alice, 'commit', '-q', '-m', 'alice: memory');
    mkdirSync(join(temp.root, 'bob'), { recursive: true });
    git(join(temp.root, 'bob'), 'clone', '-q', alice, 'proj');
    // The thread heads are this clone's own: git does not carry them.
    expect(git(alice, 'ls-files', '.cairn')).not.toContain('threads/');

    const committed = await memoryOf(bob);
    expect(currentHeadRegion(committed)).toContain('Use pnpm, never npm');
    const b1 = await session(
      bob,
      'bob',
      'b1',
      'We decided to cache invoices in redis. Next step: measure the hit rate.',
      day(2),
    );
    // Bob's first session gets the team's head and none of Alice's lineage ids.
    expect(b1.inject).toContain('Use pnpm, never npm');
    expect(b1.inject).not.toContain(a1.nodeId);
    // His session end rewrote nothing Alice committed.
    expect(await memoryOf(bob)).toBe(committed);
    expect(b1.local).toContain('cache invoices in redis');
    expect(b1.local).not.toContain('billing to the queue');

    // Both go on: Alice approves a preference and works; Bob adds a draft and works.
    const later = await open(alice, 'alice', day(3));
    await later.add({ text: 'Prefer small pull requests.', category: 'preference' });
    later.closeWorking();
    const a2 = await session(
      alice,
      'alice',
      'a2',
      'We decided to shard the queue by tenant.',
      day(3),
    );
    git(alice, 'add', '-A');
    git(alice, 'commit', '-q', '-m', 'alice: more memory');
    const draft = await open(bob, 'bob', day(4));
    await draft.add({ text: 'Redis needs a max-memory policy.', review: 'draft' });
    draft.closeWorking();
    await session(bob, 'bob', 'b2', 'We decided to set an eviction policy.', day(4));
    git(bob, 'add', '-A');
    git(bob, 'commit', '-q', '-m', 'bob: memory');
    git(bob, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
    git(alice, 'pull', '-q', '--no-rebase', '--no-edit', join(temp.root, 'bob', 'proj'), 'main');

    // One valid region, the same in both clones, with both approved units.
    for (const root of [alice, bob]) {
      const memory = await memoryOf(root);
      expect(memory.match(/<!-- cairn:head:start -->/g)).toHaveLength(1);
      expect(memory).not.toMatch(/^<{7}|^>{7}/m);
      expect(currentHeadRegion(memory)).toContain('Prefer small pull requests.');
    }
    expect(await memoryOf(alice)).toBe(await memoryOf(bob));
    // Each clone's own head is intact after the merge, and the next sessions.
    const a3 = await session(alice, 'alice', 'a3', 'Check the tenant shards.', day(5));
    const b3 = await session(bob, 'bob', 'b3', 'Check the eviction policy.', day(5));
    expect(a3.inject).toContain(a2.nodeId);
    expect(a3.local).toContain('proj.main');
    expect(b3.local).not.toContain(a2.nodeId);
    // Alice's merged unit is in Bob's own head from his next session end on (session start
    // pins that head; it injects units by relevance to the thread, not the newest ones).
    expect(b3.local).toContain('Prefer small pull requests.');
    const b4 = await session(bob, 'bob', 'b4', 'Review the redis settings.', day(6));
    expect(b4.inject).toContain('Prefer small pull requests.');
    expect(await memoryOf(alice)).toBe(await memoryOf(bob));
    expect(await doctorOk(alice, 'alice')).toEqual({ ok: true, findings: [] });
    expect(await doctorOk(bob, 'bob')).toEqual({ ok: true, findings: [] });
  });

  it("a personal head and thread head another clone committed (an older Cairn's) stay theirs", async () => {
    const bob = join(temp.root, 'bob', 'proj');
    await mkdir(join(bob, '.git'), { recursive: true });
    await writeFile(join(bob, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    // What Alice's clone committed before heads were per clone: her thread, her lineage ids.
    const aliceNode = 'node:9f0c2a56-7a61-4d36-9a7e-0b3c1d2e4f50';
    const state = foldSummary(
      emptyThreadState('claude-code', 'proj.main', '2026-03-01T10:00:00.000Z'),
      {
        status: 'Alice moved billing to the queue',
        decisions: ['Billing goes through the queue'],
        commitments: [],
        blockers: [],
        nextSteps: ['Load test the queue'],
      },
      aliceNode,
      '2026-03-01T10:00:00.000Z',
      true,
    );
    const region = renderHeadRegion({
      threads: [state],
      units: [],
      budgetTokens: 800,
      now: '2026-03-01T10:00:00.000Z',
    });
    const memory = `# Project memory\n\n<!-- cairn:head:start -->\n${region}\n<!-- cairn:head:end -->\n\n## Notes\n`;
    const thread = `<!-- cairn:thread-head:start -->\n${renderThreadHead(state)}\n<!-- cairn:thread-head:end -->\n`;
    await mkdir(join(bob, '.cairn/memory/threads'), { recursive: true });
    await writeFile(join(bob, '.cairn/memory/MEMORY.md'), memory);
    await writeFile(join(bob, '.cairn/memory/threads/claude-code.proj.main.md'), thread);

    const b1 = await session(
      bob,
      'bob',
      'b1',
      'We decided to cache invoices. Next step: measure it.',
    );
    // What Alice's head says reaches Bob; her lineage ids, which his clone cannot expand, do not.
    expect(b1.inject).toContain('Alice moved billing to the queue');
    expect(b1.inject).not.toContain(aliceNode);
    // Bob's session end changed neither file: her status is not "no summary yet".
    expect(await memoryOf(bob)).toBe(memory);
    expect(
      await readFile(join(bob, '.cairn/memory/threads/claude-code.proj.main.md'), 'utf8'),
    ).toBe(thread);
    // Bob's own thread and head are his clone's, in heads.db.
    expect(b1.local).toContain('cache invoices');
    const b2 = await session(bob, 'bob', 'b2', 'Measure the cache.');
    expect(b2.inject).toContain(b1.nodeId);
    expect(b2.inject).not.toContain(aliceNode);
    expect(await doctorOk(bob, 'bob')).toEqual({ ok: true, findings: [] });
  });
});
