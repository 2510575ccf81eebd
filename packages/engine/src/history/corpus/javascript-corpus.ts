import type { CorpusCase } from './corpus-types';

export const tsAssignable: CorpusCase = {
  name: 'tsc TS2345',
  family: 'typescript',
  command: 'pnpm exec tsc --noEmit',
  text: (v) =>
    `src/cart/total.ts(${v.line},${v.col}): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n\nFound 1 error in src/cart/total.ts:${v.line}\n`,
};
export const tsMissingName: CorpusCase = {
  name: 'tsc TS2304',
  family: 'typescript',
  command: 'pnpm exec tsc --noEmit',
  text: (v) =>
    `${v.root}/src/app.ts:${v.line}:${v.col} - error TS2304: Cannot find name 'process'.\n\n${v.line}   if (process.env.DEBUG) {\n       ~~~~~~~\n\nFound 1 error.`,
};
export const nodeModuleNotFound: CorpusCase = {
  name: 'node ERR_MODULE_NOT_FOUND',
  family: 'node',
  command: 'node dist/server.js',
  text: (v) => `node:internal/modules/esm/resolve:${v.line2}
  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);
        ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from ${v.root}/dist/server.js
    at packageResolve (node:internal/modules/esm/resolve:${v.line}:${v.col})
    at moduleResolve (node:internal/modules/esm/resolve:${v.line2}:${v.col})
    at defaultResolve (node:internal/modules/esm/resolve:${v.line}:${v.line2}) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v20.20.0`,
};
export const nodeOtherPackage: CorpusCase = {
  ...nodeModuleNotFound,
  name: 'node ERR_MODULE_NOT_FOUND other package',
  text: (v) => nodeModuleNotFound.text(v).replace("'express'", "'zod'"),
};
export const nodeAddressInUse: CorpusCase = {
  name: 'node EADDRINUSE',
  family: 'node',
  command: 'node server.js',
  text: (v) => `node:events:${v.line2}
      throw er; // Unhandled 'error' event
      ^

Error: listen EADDRINUSE: address already in use :::${v.port}
    at Server.setupListenHandle [as _listen2] (node:net:${v.line}:${v.col})
    at listenInCluster (node:net:${v.line2}:${v.col})
    at Server.listen (node:net:${v.line}:${v.line2})
    at Object.<anonymous> (${v.root}/server.js:${v.line}:${v.col})
Emitted 'error' event on Server instance at:
    at emitErrorNT (node:net:${v.line}:${v.col}) {
  code: 'EADDRINUSE',
  errno: -98,
  syscall: 'listen',
  address: '::',
  port: ${v.port}
}`,
};
export const nodeTypeError: CorpusCase = {
  name: 'node TypeError',
  family: 'node',
  command: 'node scripts/migrate.js',
  text: (v) => `${v.root}/scripts/migrate.js:${v.line}
  const rows = result.rows.map((r) => r.id);
                          ^

TypeError: Cannot read properties of undefined (reading 'map')
    at migrate (${v.root}/scripts/migrate.js:${v.line}:${v.col})
    at process.processTicksAndRejections (node:internal/process/task_queues:${v.line2}:${v.col})`,
};
export const vitestFailure: CorpusCase = {
  name: 'vitest assertion',
  family: 'vitest',
  command: 'pnpm test',
  text: (v) => ` RUN  v4.1.12 ${v.root}

 ❯ src/cart/total.test.ts (3 tests | 1 failed) ${v.ms}ms
   × total > applies the discount ${v.ms}ms
     → expected 90 to be 81 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/cart/total.test.ts > total > applies the discount
AssertionError: expected 90 to be 81 // Object.is equality

- Expected
+ Received

 ❯ src/cart/total.test.ts:${v.line}:${v.col}

 Test Files  1 failed | 4 passed (5)
      Tests  1 failed | 22 passed (23)
   Start at  ${v.time.slice(11, 19)}
   Duration  ${v.ms}ms (transform 112ms, setup 0ms, collect 301ms, tests ${v.ms}ms)`,
};
export const vitestOtherTest: CorpusCase = {
  ...vitestFailure,
  name: 'vitest other test',
  text: (v) => vitestFailure.text(v).replaceAll('applies the discount', 'rounds to cents'),
};
export const jestFailure: CorpusCase = {
  name: 'jest assertion',
  family: 'jest',
  command: 'npx jest',
  text: (v) => `FAIL src/user.test.js (${(v.ms / 1000).toFixed(3)} s)
  ● user › rejects an empty email

    expect(received).toThrow(expected)

    Expected substring: "email"
    Received function did not throw

      ${v.line} |   it('rejects an empty email', () => {
    > ${v.line2} |     expect(() => createUser({ email: '' })).toThrow('email');

      at Object.<anonymous> (src/user.test.js:${v.line}:${v.col})

Test Suites: 1 failed, 2 passed, 3 total
Tests:       1 failed, 9 passed, 10 total
Snapshots:   0 total
Time:        ${(v.ms / 100).toFixed(2)} s`,
};
export const mochaFailure: CorpusCase = {
  name: 'mocha assertion',
  family: 'mocha',
  command: 'npx mocha',
  text: (v) => `  parser
    ✔ reads a header
    1) keeps quoted commas


  1 passing (${v.ms}ms)
  1 failing

  1) parser
       keeps quoted commas:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

3 !== 2

      + expected - actual
      at Context.<anonymous> (test/parser.test.js:${v.line}:${v.col})
      at process.processImmediate (node:internal/timers:${v.line2}:${v.col})`,
};
export const npmEresolve: CorpusCase = {
  name: 'npm ERESOLVE',
  family: 'npm',
  command: 'npm install',
  text: (v) => `npm error code ERESOLVE
npm error ERESOLVE unable to resolve dependency tree
npm error
npm error While resolving: shop@1.0.0
npm error Found: react@18.2.0
npm error node_modules/react
npm error   react@"^18.2.0" from the root project
npm error
npm error Could not resolve dependency:
npm error peer react@"^17.0.0" from react-beautiful-dnd@13.1.1
npm error
npm error A complete log of this run can be found in: ${v.home}/.npm/_logs/${v.time.replace(/:/g, '_')}-debug-0.log`,
};
export const npmE404: CorpusCase = {
  name: 'npm E404',
  family: 'npm',
  command: 'npm install',
  text: (v) => `npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/expresss - Not found
npm error 404
npm error 404  'expresss@*' is not in this registry.
npm error A complete log of this run can be found in: ${v.home}/.npm/_logs/${v.time.replace(/:/g, '_')}-debug-0.log`,
};
export const npmEacces: CorpusCase = {
  name: 'npm EACCES',
  family: 'npm',
  command: 'npm install -g typescript',
  text: (v) => `npm ERR! code EACCES
npm ERR! syscall mkdir
npm ERR! path /usr/local/lib/node_modules/typescript
npm ERR! errno -13
npm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/typescript'
npm ERR!  [Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/typescript'] {
npm ERR!   errno: -13,
npm ERR! }
npm ERR! A complete log of this run can be found in: ${v.home}/.npm/_logs/${v.time}-debug-0.log`,
};
export const pnpmOutdatedLockfile: CorpusCase = {
  name: 'pnpm ERR_PNPM_OUTDATED_LOCKFILE',
  family: 'pnpm',
  command: 'pnpm install --frozen-lockfile',
  text: (v) => `Scope: all 12 workspace projects
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with ${v.root}/packages/api/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"
Progress: resolved ${v.line}, reused ${v.line2}, downloaded 0, added 0`,
};
export const pnpmNoVersion: CorpusCase = {
  name: 'pnpm ERR_PNPM_NO_MATCHING_VERSION',
  family: 'pnpm',
  command: 'pnpm add zod@9',
  text: (
    v,
  ) => ` ERR_PNPM_NO_MATCHING_VERSION  No matching version found for zod@9.0.0 while fetching it from https://registry.npmjs.org/

This error happened while installing a direct dependency of ${v.root}

The latest release of zod is "4.6.7".`,
};
export const pnpmScriptWrapsVitest: CorpusCase = {
  ...vitestFailure,
  name: 'vitest under pnpm -r (wrapper ignored)',
  text: (v) =>
    `${vitestFailure.text(v)}\n/packages/cart:\n ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @shop/cart@0.${v.line}.0 test: \`vitest run\`\nExit status 1`,
};
export const yarnBerry: CorpusCase = {
  name: 'yarn YN0028',
  family: 'yarn',
  command: 'yarn install --immutable',
  text: (v) => `➤ YN0000: ┌ Resolution step
➤ YN0028: │ The lockfile would have been modified by this install, which is explicitly forbidden.
➤ YN0000: └ Completed in ${(v.ms / 1000).toFixed(2)}s
➤ YN0000: Failed with errors in ${(v.ms / 1000).toFixed(2)}s`,
};
