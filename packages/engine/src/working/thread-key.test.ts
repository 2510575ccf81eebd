import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';
import { currentHeadRegion } from './head-render';
import { defaultThreadKey, gitBranch, slugify } from './thread-key';

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
    const project_ = slugify(basename(project.root), 40);
    expect(defaultThreadKey(project.root)).toBe(`${project_}.feature-billing`);
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
    const cairn = openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
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

describe('compaction completion', () => {
  it('alone refreshes the thread head and the head of MEMORY.md', async () => {
    const cairn = openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
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
    const memory = await readFile(join(memoryWorkspacePath(project.root), 'MEMORY.md'), 'utf8');
    expect(currentHeadRegion(memory)).toContain('`topic-search`');
    expect(currentHeadRegion(memory)).toContain(compaction.nodeId!);
    cairn.closeWorking();
  });
});
