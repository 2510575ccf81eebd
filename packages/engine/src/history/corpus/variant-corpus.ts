import type { CorpusCase } from './corpus-types';

/**
 * Second forms of the ecosystems' errors: the other way a tool says a
 * thing (CommonJS vs ESM, npm without a code, yarn classic, a syntax error
 * with no traceback header, a jest suite that cannot load, cmd.exe).
 */
export const npmMissingScript: CorpusCase = {
  name: 'npm missing script',
  family: 'npm',
  command: 'npm run build',
  text: (v) => `npm error Missing script: "build"
npm error
npm error To see a list of scripts, run:
npm error   npm run
npm error A complete log of this run can be found in: ${v.home}/.npm/_logs/${v.time}-debug-0.log`,
};
export const nodeCjsNotFound: CorpusCase = {
  name: 'node MODULE_NOT_FOUND (CommonJS)',
  family: 'node',
  command: 'node dist/index.js',
  text: (v) => `node:internal/modules/cjs/loader:${v.line2}
  throw err;
  ^

Error: Cannot find module '${v.root}/dist/index.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:${v.line}:${v.col})
    at Module._load (node:internal/modules/cjs/loader:${v.line2}:${v.col}) {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v22.12.0`,
};
export const jestSuiteFailed: CorpusCase = {
  name: 'jest suite cannot load',
  family: 'jest',
  command: 'npx jest',
  text: (v) => `FAIL src/orders.test.ts
  ● Test suite failed to run

    Cannot find module '../db' from 'src/orders.test.ts'

      ${v.line} | import { db } from '../db';

      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:${v.line2}:${v.col})

Test Suites: 1 failed, 1 total
Tests:       0 total
Time:        ${(v.ms / 100).toFixed(3)} s`,
};
export const yarnClassicNotFound: CorpusCase = {
  name: 'yarn classic package not found',
  family: 'yarn',
  command: 'yarn add left-padd',
  text: (v) => `yarn add v1.22.22
[1/4] Resolving packages...
error Couldn't find package "left-padd" on the "npm" registry.
info Visit https://yarnpkg.com/en/docs/cli/add for documentation about this command.
Done in ${(v.ms / 1000).toFixed(2)}s.`,
};
export const pythonSyntax: CorpusCase = {
  name: 'python SyntaxError (no traceback header)',
  family: 'python',
  command: 'python3 app.py',
  text: (v) => `  File "${v.root}/app.py", line ${v.line}
    def total(items:
             ^
SyntaxError: '(' was never closed`,
};
export const kotlinGradle: CorpusCase = {
  name: 'gradle kotlin compile error',
  family: 'gradle',
  command: './gradlew assemble',
  text: (v) => `> Task :app:compileKotlin FAILED
e: file://${v.root}/app/src/main/kotlin/App.kt:${v.line}:${v.col} Unresolved reference: formatPrice

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileKotlin'.
> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction
   > Compilation error. See log for more details

BUILD FAILED in ${Math.round(v.ms / 100)}s`,
};
export const cargoNoPackage: CorpusCase = {
  name: 'cargo missing crate',
  family: 'rust',
  command: 'cargo build',
  text: (v) => `    Updating crates.io index
error: no matching package named \`serde_jsn\` found
location searched: registry \`crates-io\`
required by package \`shop v0.1.0 (${v.root})\``,
};
export const cmdNotRecognized: CorpusCase = {
  name: 'cmd.exe not recognized',
  family: 'shell',
  command: 'pnpm install',
  text: () =>
    "'pnpm' is not recognized as an internal or external command,\noperable program or batch file.",
};
export const dockerPullDenied: CorpusCase = {
  name: 'docker pull access denied',
  family: 'docker',
  command: 'docker run acme/shop-api',
  text: (v) => `Unable to find image 'acme/shop-api:latest' locally
docker: Error response from daemon: pull access denied for acme/shop-api, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.
See 'docker run --help'. (${v.time})`,
};
export const gitAuthFailed: CorpusCase = {
  name: 'git authentication failed',
  family: 'git',
  command: 'git push',
  text: (v) => `remote: Invalid username or password.
fatal: Authentication failed for 'https://github.com/acme/shop.git/' (${v.time})`,
};
export const gitPathspec: CorpusCase = {
  name: 'git pathspec',
  family: 'git',
  command: 'git checkout release-2',
  text: () => "error: pathspec 'release-2' did not match any file(s) known to git",
};
