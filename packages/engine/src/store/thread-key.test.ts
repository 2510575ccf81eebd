import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '..';
import { defaultThreadKey, folderProjectId, gitBranch, slugify } from './thread-key';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const checkout = (branch: string) =>
  writeFile(join(project.root, '.git', 'HEAD'), `ref: refs/heads/${branch}\n`);

describe('default thread keys', () => {
  it('is the project plus its git branch, read from HEAD, a worktree pointer included', async () => {
    expect(gitBranch(project.root)).toBe('none');
    await mkdir(join(project.root, '.git'));
    await checkout('feature/Billing');
    expect(defaultThreadKey(folderProjectId(project.root), project.root)).toBe(
      `${slugify(basename(project.root), 40)}.feature-billing`,
    );
    // A session in a subfolder is on the project root's branch.
    await mkdir(join(project.root, 'src'));
    expect(defaultThreadKey('p', join(project.root, 'src'), project.root)).toBe(
      'p.feature-billing',
    );
    await writeFile(join(project.root, '.git', 'HEAD'), '3f1c0de\n');
    expect(gitBranch(project.root)).toBe('detached');
    const worktree = join(project.root, 'wt');
    await mkdir(join(project.root, '.git', 'worktrees', 'wt'), { recursive: true });
    await writeFile(join(project.root, '.git', 'worktrees', 'wt', 'HEAD'), 'ref: refs/heads/fix\n');
    await mkdir(worktree);
    await writeFile(join(worktree, '.git'), 'gitdir: ../.git/worktrees/wt\n');
    expect(gitBranch(worktree)).toBe('fix');
  });

  it('puts sessions of one branch in one thread and another branch in its own', async () => {
    await mkdir(join(project.root, '.git'));
    await checkout('main');
    const cairn = await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
    await cairn.init();
    const session = (sessionKey: string) => ({
      agentId: 'claude',
      sessionKey,
      harness: 'claude-code',
      cwd: project.root,
    });
    for (const key of ['s1', 's2']) {
      await cairn.lifecycle.sessionStart(session(key));
      await cairn.lifecycle.userPromptSubmit({ ...session(key), prompt: `main work ${key}` });
      await cairn.lifecycle.sessionEnd(session(key));
    }
    await checkout('release');
    await cairn.lifecycle.sessionStart(session('s3'));
    await cairn.lifecycle.userPromptSubmit({ ...session('s3'), prompt: 'release work' });
    await cairn.lifecycle.sessionEnd(session('s3'));
    const threads = cairn.threads('claude').map((t) => [t.threadKey, t.sessions]);
    const name = slugify(basename(project.root), 40);
    expect(Object.fromEntries(threads)).toEqual({ [`${name}.main`]: 2, [`${name}.release`]: 1 });
    cairn.closeWorking();
  });
});

describe('the project id in default thread keys', () => {
  const session = (root: string, sessionKey: string) => ({
    agentId: 'claude',
    sessionKey,
    harness: 'claude-code',
    cwd: root,
  });
  async function oneSession(root: string, sessionKey: string, env: Record<string, string> = {}) {
    const cairn = await openCairn(root, { env, homeDir: join(project.root, 'home') });
    try {
      await cairn.init();
      await cairn.lifecycle.sessionStart(session(root, sessionKey));
      await cairn.lifecycle.userPromptSubmit({ ...session(root, sessionKey), prompt: 'work' });
      await cairn.lifecycle.sessionEnd(session(root, sessionKey));
      return Object.fromEntries(cairn.threads('claude').map((t) => [t.threadKey, t.sessions]));
    } finally {
      cairn.closeWorking();
    }
  }

  it('is stored by the first session, so `mv proj moved` keeps the thread', async () => {
    const original = join(project.root, 'Billing App');
    const moved = join(project.root, 'renamed');
    await mkdir(join(original, '.git'), { recursive: true });
    await writeFile(join(original, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    // The first key is the one every project had so far: an upgrade keeps the current thread.
    expect(await oneSession(original, 's1')).toEqual({ 'billing-app.main': 1 });
    await rename(original, moved);
    expect(await oneSession(moved, 's2')).toEqual({ 'billing-app.main': 2 });
  });

  it('is the `projectId` setting when one is set', async () => {
    const root = join(project.root, 'checkout-2');
    await mkdir(root);
    expect(await oneSession(root, 's1', { CAIRN_PROJECT_ID: 'billing' })).toEqual({
      'billing.none': 1,
    });
  });
});

describe('compaction completion', () => {
  it('alone refreshes the thread head and the head of this clone', async () => {
    const cairn = await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
    await cairn.init();
    const a = { agentId: 'claude', sessionKey: 's1', harness: 'claude-code', cwd: project.root };
    await cairn.lifecycle.sessionStart({ ...a, threadKey: 'topic-search' });
    const compaction = await cairn.lifecycle.compactionComplete({
      ...a,
      summary: 'We decided to keep FTS5. Next: measure the refresh.',
    });
    const head = cairn.threadHead('claude', 'topic-search');
    expect(head.state.lineage).toContain(compaction.nodeId);
    const file = join(memoryWorkspacePath(project.root), 'threads', 'claude.topic-search.md');
    expect(await readFile(file, 'utf8')).toContain(compaction.nodeId!);
    // Tier 1 is this clone's head (MEMORY.md's region is the team's: docs/TEAMS.md).
    expect(cairn.localHead()).toContain('`topic-search`');
    expect(cairn.localHead()).toContain(compaction.nodeId!);
    cairn.closeWorking();
  });
});
