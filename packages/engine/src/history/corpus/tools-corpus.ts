import type { CorpusCase } from './corpus-types';

export const bashNotFound: CorpusCase = {
  name: 'bash command not found',
  family: 'shell',
  command: 'pnpm build',
  text: (v) =>
    `\n> shop@1.0.0 build ${v.root}\n> tsup\n\nsh: 1: tsup: not found\n ELIFECYCLE  Command failed.`,
};
export const zshNotFound: CorpusCase = {
  name: 'zsh command not found',
  family: 'shell',
  command: 'jq .version package.json',
  text: () => 'zsh: command not found: jq',
};
export const bashOtherNotFound: CorpusCase = {
  name: 'bash other command not found',
  family: 'shell',
  command: 'pnpm build',
  text: (v) => bashNotFound.text(v).replaceAll('tsup', 'tsc'),
};
export const scriptNotExecutable: CorpusCase = {
  name: 'script permission denied',
  family: 'shell',
  command: './scripts/deploy.sh',
  text: (v) => `bash: ${v.root}/scripts/deploy.sh: Permission denied`,
};
export const gitNotRepo: CorpusCase = {
  name: 'git not a repository',
  family: 'git',
  command: 'git status',
  text: () => 'fatal: not a git repository (or any of the parent directories): .git',
};
export const gitRejected: CorpusCase = {
  name: 'git push rejected',
  family: 'git',
  command: 'git push origin main',
  text: (v) => `To github.com:acme/shop.git
 ! [rejected]        main -> main (fetch first)
error: failed to push some refs to 'github.com:acme/shop.git'
hint: Updates were rejected because the remote contains work that you do not
hint: have locally. This is usually caused by another repository pushing to
hint: the same ref. ${v.sha}`,
};
export const gitRejectedNonFastForward: CorpusCase = {
  ...gitRejected,
  name: 'git push rejected (non-fast-forward)',
  text: (v) => gitRejected.text(v).replace('(fetch first)', '(non-fast-forward)'),
};
export const gitConflict: CorpusCase = {
  name: 'git merge conflict',
  family: 'git',
  command: 'git merge feature/checkout',
  text: (v) => `Auto-merging src/cart/total.ts
CONFLICT (content): Merge conflict in src/cart/total.ts
Auto-merging src/cart/total-${v.line}.ts
Automatic merge failed; fix conflicts and then commit the result.`,
};
export const dockerDaemon: CorpusCase = {
  name: 'docker daemon down',
  family: 'docker',
  command: 'docker compose up -d',
  text: () =>
    'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
};
export const dockerPortTaken: CorpusCase = {
  name: 'docker port allocated',
  family: 'docker',
  command: 'docker run -p 5432:5432 postgres:16',
  text: (v) =>
    `docker: Error response from daemon: driver failed programming external connectivity on endpoint pg-${v.pid} (${v.sha}${v.sha}): Bind for 0.0.0.0:${v.port} failed: port is already allocated.`,
};
export const dockerBuildStep: CorpusCase = {
  name: 'docker build step failed',
  family: 'docker',
  command: 'docker build -t shop .',
  text: (
    v,
  ) => ` => ERROR [build 4/6] RUN npm ci                                          ${(v.ms / 100).toFixed(1)}s
------
 > [build 4/6] RUN npm ci:
------
Dockerfile:${v.line}
ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1`,
};
export const genericFailure: CorpusCase = {
  name: 'generic tool failure',
  family: 'generic',
  command: 'make deploy',
  text: (v) =>
    `[${v.time}] connecting to 10.0.0.${v.col}:${v.port}\n[${v.time}] upload failed: connection reset by peer (after ${v.ms}ms, pid ${v.pid})`,
};
