import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestRepo, poisonRepo, type TestRepo } from './git-test-repo.fixture';
import { createGitReader, findGit } from './safe-git';

let base: string;
let repo: TestRepo;
let marker: string;
const t0 = new Date('2026-05-01T09:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'cairn-git-'));
  repo = makeTestRepo(join(base, 'repo'), join(base, 'home'));
  marker = join(base, 'marker.txt');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

async function reader() {
  const bin = await findGit(process.env, repo.dir);
  expect(bin).toBeDefined();
  return createGitReader(bin!, repo.dir, { ...process.env, HOME: join(base, 'home') });
}

describe('safe git reader', () => {
  it('lists the commits of a time window, oldest first, and sums their diff', async () => {
    repo.commit('chore: before the session', { 'a.txt': 'one\n' }, at(-60));
    const first = repo.commit('fix: first', { 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' }, at(5));
    const second = repo.commit('feat: second', { 'b.txt': 'B\n' }, at(10));
    const git = await reader();
    const commits = await git.commitsBetween(at(0), at(20));
    expect(commits.map((c) => [c.sha, c.subject])).toEqual([
      [first, 'fix: first'],
      [second, 'feat: second'],
    ]);
    const stat = await git.diffStat(commits[0]!.parent!, second);
    expect(stat.files).toEqual([
      { path: 'a.txt', added: 1, removed: 0 },
      { path: 'b.txt', added: 1, removed: 0 },
    ]);
    expect([stat.insertions, stat.deletions]).toEqual([2, 0]);
  });

  it('diffs a root commit against the empty tree', async () => {
    const root = repo.commit('init', { 'a.txt': 'x\ny\n' }, at(1));
    const stat = await (await reader()).diffStat('empty-tree', root);
    expect(stat.insertions).toBe(2);
  });

  it('runs nothing a hostile .git/config or .gitattributes names', async () => {
    repo.commit('init', { 'a.txt': 'one\n' }, at(1));
    const head = repo.commit('change', { 'a.txt': 'two\n', 'b.bin': 'b\n' }, at(2));
    poisonRepo(repo, marker);
    const git = await reader();
    const commits = await git.commitsBetween(at(0), at(5));
    expect(commits).toHaveLength(2);
    const stat = await git.diffStat(commits[0]!.sha, head);
    expect(stat.files.map((f) => f.path)).toEqual(['a.txt', 'b.bin']);
    expect(existsSync(marker)).toBe(false);
    // The same repository does run the script for plain git: the poison is real.
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['diff', commits[0]!.sha, head], {
      cwd: repo.dir,
      env: { PATH: process.env.PATH ?? '', HOME: join(base, 'home'), GIT_CONFIG_NOSYSTEM: '1' },
    });
    expect(existsSync(marker)).toBe(true);
  });

  it('never runs a git that lives inside the project or on a relative PATH entry', async () => {
    const fake = join(repo.dir, 'bin');
    mkdirSync(fake);
    writeFileSync(join(fake, 'git'), `#!/bin/sh\necho fake >> '${marker}'\n`);
    chmodSync(join(fake, 'git'), 0o755);
    const bin = await findGit({ PATH: ['bin', fake, process.env.PATH].join(':') }, repo.dir);
    expect(bin).toBeDefined();
    expect(bin!.startsWith(repo.dir)).toBe(false);
    expect(await findGit({ PATH: `bin:${fake}` }, repo.dir)).toBeUndefined();
  });

  it('fails with a reason outside a repository, without a shell', async () => {
    const outside = join(base, 'plain');
    mkdirSync(outside);
    const bin = await findGit(process.env, outside);
    const git = createGitReader(bin!, outside, { PATH: process.env.PATH, HOME: base });
    await expect(git.commitsBetween(at(0), at(1))).rejects.toThrow(/git log failed/);
    await expect(git.diffStat('HEAD; touch x', 'HEAD')).rejects.toThrow(/two commit ids/);
  });
});
