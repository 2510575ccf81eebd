import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitBranch } from '../store';
import { readHeadCommit } from './head-commit';

/**
 * HEAD and its ref are read without a git process. A `.git` folder can
 * come in an archive with the rest of a repository, so what it holds
 * decides nothing outside it: a ref with `..` is no ref, and a FIFO where
 * git keeps a file is not read (it would stall the hook).
 */

const SHA = 'a'.repeat(40);
let project: TempProject;
let git: string;
beforeEach(async () => {
  project = await makeTempProject('cairn-head-');
  git = join(project.root, 'repo', '.git');
  mkdirSync(join(git, 'refs', 'heads'), { recursive: true });
});
afterEach(() => project.cleanup());

const repo = () => join(project.root, 'repo');

describe('readHeadCommit', () => {
  it('reads a loose ref and a detached HEAD', () => {
    writeFileSync(join(git, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(git, 'refs', 'heads', 'main'), `${SHA}\n`);
    expect(readHeadCommit(repo())).toBe(SHA);
    writeFileSync(join(git, 'HEAD'), `${'b'.repeat(40)}\n`);
    expect(readHeadCommit(repo())).toBe('b'.repeat(40));
  });

  it('never follows a ref out of .git', () => {
    writeFileSync(join(project.root, 'outside'), `${SHA}\n`);
    writeFileSync(join(git, 'HEAD'), 'ref: refs/../../../outside\n');
    expect(readHeadCommit(repo())).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('reads no FIFO where git keeps a file', () => {
    writeFileSync(join(git, 'HEAD'), 'ref: refs/heads/main\n');
    execFileSync('mkfifo', [join(git, 'refs', 'heads', 'main')]);
    execFileSync('mkfifo', [join(git, 'packed-refs')]);
    expect(readHeadCommit(repo())).toBeUndefined();
  });
});

describe('gitBranch', () => {
  it.runIf(process.platform === 'linux')('is none when HEAD is a FIFO', () => {
    execFileSync('mkfifo', [join(git, 'HEAD')]);
    expect(gitBranch(repo())).toBe('none');
  });
});
