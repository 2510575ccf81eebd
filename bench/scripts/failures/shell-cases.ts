import { type FailureCase, pad, pick, variants } from './failure-case';

const DIRS = ['', 'scripts/', 'tools/ci/'];

function shellCase(
  name: string,
  fix: string,
  tool: string,
  run: (v: number) => { command: string; files?: Record<string, string>; setup?: string },
  n = 3,
): FailureCase {
  return {
    ecosystem: 'shell',
    name,
    fix,
    tool,
    runs: variants(n, (v) => ({ files: {}, ...run(v) })),
  };
}

export const SHELL_CASES: FailureCase[] = [
  shellCase('bash-gh-not-found', 'install-program:gh', 'bash', (v) => ({
    command: `gh pr view ${v + 12}`,
  })),
  shellCase('bash-rg-not-found', 'install-program:rg', 'bash', (v) => ({
    command: `rg ${pick(['TODO', 'FIXME', 'console.log'], v)} src`,
  })),
  shellCase(
    'bash-yarn-not-found',
    'install-program:yarn',
    'bash',
    (v) => ({ command: pick(['yarn install', 'yarn install --frozen-lockfile'], v) }),
    2,
  ),
  shellCase('script-line-not-found', 'install-program:helm', 'bash', (v) => ({
    command: `bash ${pick(DIRS, v)}deploy.sh`,
    files: {
      [`${pick(DIRS, v)}deploy.sh`]: `${pad(v, '#', 3)}echo deploying\nhelm upgrade --install app ./chart\n`,
    },
  })),
  shellCase('sh-not-found', 'install-program:flyctl', 'sh', (v) => ({
    command: `sh ${pick(DIRS, v)}infra.sh`,
    files: { [`${pick(DIRS, v)}infra.sh`]: `${pad(v, '#', 2)}flyctl deploy\n` },
  })),
  shellCase('permission-denied', 'chmod-executable:deploy.sh', 'bash', (v) => ({
    command: `./${pick(DIRS, v)}deploy.sh`,
    files: { [`${pick(DIRS, v)}deploy.sh`]: '#!/bin/sh\necho hi\n' },
  })),
  shellCase(
    'permission-denied-build',
    'chmod-executable:build.sh',
    'bash',
    (v) => ({
      command: `./${pick(DIRS, v)}build.sh`,
      files: { [`${pick(DIRS, v)}build.sh`]: '#!/bin/sh\necho hi\n' },
    }),
    2,
  ),
  shellCase('no-such-script', 'fix-script-path:build.sh', 'bash', (v) => ({
    command: `./${pick(DIRS, v)}build.sh`,
  })),
  shellCase('cd-missing', 'fix-directory-path:packages/api', 'bash', (v) => ({
    command: pick(
      ['cd packages/api && ls', 'cd packages/api && ls -la', 'cd packages/api && ls src'],
      v,
    ),
  })),
  shellCase('unbound-variable', 'set-env:DEPLOY_ENV', 'bash', (v) => ({
    command: `bash ${pick(DIRS, v)}release.sh`,
    files: {
      [`${pick(DIRS, v)}release.sh`]: `set -u\n${pad(v, '#', 2)}echo "target: $DEPLOY_ENV"\n`,
    },
  })),
  shellCase('make-no-rule', 'add-make-target:build', 'make', (v) => ({
    command: pick(['make build', 'make build -j2', 'make -s build'], v),
    files: { Makefile: `${pad(v, '#', 2)}test:\n\t@echo test\n` },
  })),
  shellCase('make-no-makefile', 'run-in-makefile-dir', 'make', (v) => ({
    command: pick(['make', 'make -j4', 'make -s'], v),
  })),
  shellCase('make-recipe-fails', 'install-program:protoc', 'make', (v) => ({
    command: 'make gen',
    files: { Makefile: `${pad(v, '#', 2)}gen:\n\tprotoc --go_out=. api${v}.proto\n` },
  })),
  shellCase(
    'make-recipe-fails-buf',
    'install-program:buf',
    'make',
    (v) => ({
      command: 'make gen',
      files: { Makefile: `${pad(v, '#', 2)}gen:\n\tbuf generate api${v}\n` },
    }),
    2,
  ),
];

/** Docker's client: there is no daemon on these machines, and some errors come before it is needed. */
export const DOCKER_CASES: FailureCase[] = [
  shellCase('daemon-down-ps', 'start-docker-daemon', 'docker', (v) => ({
    command: pick(['docker ps', 'docker ps -a', 'docker ps --all -q'], v),
  })),
  shellCase('daemon-down-run', 'start-docker-daemon:run', 'docker', (v) => ({
    command: `docker run --rm -p ${8000 + v}:80 ${pick(['nginx', 'redis:7', 'postgres:16'], v)}`,
  })),
  shellCase(
    'daemon-down-build',
    'start-docker-daemon:build',
    'docker',
    (v) => ({
      command: `docker build -t ${pick(['shop', 'api', 'worker'], v)}:${v} .`,
      files: { Dockerfile: 'FROM alpine:3.20\nRUN echo hi\n' },
    }),
    2,
  ),
  shellCase('invalid-reference', 'lowercase-image-name:MyApp', 'docker', (v) => ({
    command: `docker run --rm -p ${8000 + v}:80 MyApp:${pick(['latest', 'v2', 'dev'], v)}`,
  })),
  shellCase(
    'unknown-command',
    'fix-docker-command:composer',
    'docker',
    () => ({ command: 'docker composer up' }),
    2,
  ),
  shellCase(
    'unknown-flag',
    'fix-docker-flag:--detached',
    'docker',
    (v) => ({ command: `docker run --detached ${pick(['nginx', 'redis'], v)}` }),
    2,
  ),
].map((c) => ({ ...c, ecosystem: 'docker' }));
