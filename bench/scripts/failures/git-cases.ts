import { type FailureCase, pick, variants } from './failure-case';

const BRANCHES = ['feature/login', 'fix-cache', 'wip/search', 'topic-42'];
const FILES = ['README.md', 'src/app.ts', 'config.yml', 'lib/util.py'];
/** A repository with one commit. */
const REPO = 'git init -q . && echo one > seed.txt && git add . && git commit -qm init';

function gitCase(
  name: string,
  fix: string,
  run: (v: number) => { command: string; setup?: string },
  n = 3,
): FailureCase {
  return {
    ecosystem: 'git',
    name,
    fix,
    tool: 'git',
    runs: variants(n, (v) => ({ files: {}, ...run(v) })),
  };
}

export const GIT_CASES: FailureCase[] = [
  gitCase('not-a-repository', 'git-init-or-cd-into-repo', (v) => ({
    command: pick(['git status', 'git status -s', 'git status --short'], v),
  })),
  gitCase(
    'not-a-repository-log',
    'git-init-or-cd-into-repo:log',
    (v) => ({ command: pick(['git log --oneline', 'git log -n 5'], v) }),
    2,
  ),
  gitCase('pathspec-checkout', 'create-or-fetch-branch', (v) => ({
    setup: REPO,
    command: `git checkout ${pick(BRANCHES, v)}`,
  })),
  gitCase('pathspec-add', 'fix-path-to-add', (v) => ({
    setup: REPO,
    command: `git add ${pick(FILES, v)}`,
  })),
  gitCase('merge-conflict', 'resolve-merge-conflict:content', (v) => {
    const file = pick(FILES, v);
    const branch = pick(BRANCHES, v);
    return {
      setup: `${REPO} && mkdir -p $(dirname ${file}) && echo base > ${file} && git add . && git commit -qm base && git checkout -qb ${branch} && echo theirs${v} > ${file} && git commit -qam theirs && git checkout -q main && echo ours${v} > ${file} && git commit -qam ours`,
      command: `git merge ${branch}`,
    };
  }),
  gitCase('push-non-fast-forward', 'pull-rebase-then-push', (v) => ({
    setup: `git init -q --bare ../remote-${v}.git && ${REPO} && git remote add origin ../remote-${v}.git && git push -q origin main && git clone -q ../remote-${v}.git ../other-${v} && (cd ../other-${v} && echo x${v} > other.txt && git add . && git commit -qm other && git push -q origin main) && echo mine > mine.txt && git add . && git commit -qm mine`,
    command: pick(['git push origin main', 'git push origin HEAD', 'git push -u origin main'], v),
  })),
  gitCase('push-no-upstream', 'set-upstream-branch', (v) => ({
    setup: `git init -q --bare ../remote-${v}.git && ${REPO} && git remote add origin ../remote-${v}.git && git checkout -qb ${pick(BRANCHES, v)}`,
    command: 'git push',
  })),
  gitCase(
    'nothing-to-commit',
    'stage-changes-before-commit',
    (v) => ({
      setup: REPO,
      command: `git commit -m "${pick(['fix bug', 'update docs', 'wip'], v)}"`,
    }),
    2,
  ),
  gitCase(
    'identity-unknown',
    'set-git-identity',
    (v) => ({
      setup: `rm -f "$HOME/.gitconfig" && git init -q . && echo ${v} > a.txt && git add .`,
      command: `git commit -m "${pick(['first', 'initial commit'], v)}"`,
    }),
    2,
  ),
  gitCase(
    'pull-no-tracking',
    'set-upstream-branch-for-pull',
    (v) => ({
      setup: `git init -q --bare ../remote-${v}.git && ${REPO} && git remote add origin ../remote-${v}.git && git push -q origin main && git checkout -qb ${pick(BRANCHES, v)}`,
      command: 'git pull',
    }),
    2,
  ),
  gitCase('clone-missing', 'fix-clone-url', (v) => ({
    command: `git clone ${pick(['/srv/git/shop.git', '../missing-repo', '/tmp/nowhere/api.git'], v)}`,
  })),
  gitCase(
    'rebase-unstaged',
    'commit-or-stash-before-rebase',
    (v) => ({
      setup: `${REPO} && git checkout -qb ${pick(BRANCHES, v)} && echo x${v} >> seed.txt`,
      command: 'git rebase main',
    }),
    2,
  ),
  gitCase('checkout-would-overwrite', 'commit-or-stash-before-switch', (v) => ({
    setup: `${REPO} && git checkout -qb ${pick(BRANCHES, v)} && echo b >> seed.txt && git commit -qam b && git checkout -q main && echo local${v} >> seed.txt`,
    command: `git checkout ${pick(BRANCHES, v)}`,
  })),
  gitCase(
    'unknown-revision',
    'fix-revision-name',
    (v) => ({
      setup: REPO,
      command: `git diff ${pick(['origin/develop', 'v9.9.9', 'release-1'], v)}`,
    }),
    2,
  ),
];
