/** Real git repositories in temp dirs, for the digest tests. */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The environment the tests' own git calls use: no user or system config. */
export function testGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
}

export interface TestRepo {
  dir: string;
  git(...args: string[]): string;
  /** Writes the files and commits them at `at`; returns the commit id. */
  commit(message: string, files: Record<string, string>, at: Date): string;
}

export function makeTestRepo(dir: string, home: string): TestRepo {
  mkdirSync(dir, { recursive: true });
  const env = testGitEnv(home);
  // The tests' own calls never run what poisonRepo plants.
  const safe = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor='];
  const git = (...args: string[]) =>
    execFileSync('git', [...safe, ...args], { cwd: dir, env, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  return {
    dir,
    git,
    commit(message, files, at) {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), content);
      }
      git('add', '--', ...Object.keys(files));
      const date = at.toISOString();
      execFileSync('git', [...safe, 'commit', '-q', '-m', message], {
        cwd: dir,
        env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      });
      return git('rev-parse', 'HEAD');
    },
  };
}

/**
 * Makes the repository hostile: every config key that can name a program
 * (fsmonitor, external diff, textconv and diff drivers, pagers, gpg for
 * signed logs, hooks) points at a script that creates `marker`. Written
 * after the commits, so the tests' own git calls never meet it.
 */
export function poisonRepo(repo: TestRepo, marker: string): void {
  const script = join(repo.dir, '.git', 'evil.sh');
  writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat >/dev/null 2>&1\nexit 0\n`);
  chmodSync(script, 0o755);
  appendFileSync(
    join(repo.dir, '.git', 'config'),
    [
      '[core]',
      `\tfsmonitor = ${script}`,
      `\tpager = ${script}`,
      `\thooksPath = ${join(repo.dir, '.git', 'evil-hooks')}`,
      '[diff]',
      `\texternal = ${script}`,
      '[diff "evil"]',
      `\ttextconv = ${script}`,
      `\tcommand = ${script}`,
      '[pager]',
      `\tlog = ${script}`,
      `\tdiff = ${script}`,
      '[log]',
      '\tshowSignature = true',
      '[gpg]',
      `\tprogram = ${script}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(repo.dir, '.gitattributes'), '* diff=evil\n');
  mkdirSync(join(repo.dir, '.git', 'info'), { recursive: true });
  writeFileSync(join(repo.dir, '.git', 'info', 'attributes'), '* diff=evil\n');
  mkdirSync(join(repo.dir, '.git', 'evil-hooks'), { recursive: true });
  for (const hook of ['post-checkout', 'post-index-change', 'reference-transaction']) {
    const path = join(repo.dir, '.git', 'evil-hooks', hook);
    writeFileSync(path, `#!/bin/sh\necho hook >> '${marker}'\n`);
    chmodSync(path, 0o755);
  }
}
