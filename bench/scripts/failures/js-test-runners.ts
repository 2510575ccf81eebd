import type { FailureCase } from './failure-case';
import { pick } from './failure-case';
import {
  type Asserts,
  type JsRunner,
  jsRunnerCases,
  PLACES,
  type TestScenario,
  testBody,
} from './js-test-cases';

/**
 * The JS runners the capture installs from npm (versions pinned in
 * capture-failures.ts) and node's own test runner, each writing the
 * scenarios of js-test-cases.ts in its own idiom.
 */

const NODE_ASSERT: Asserts = { equal: (a, b) => `assert.strictEqual(${a}, ${b});` };
const EXPECT: Asserts = { equal: (a, b) => `expect(${a}).toBe(${b});` };
const AVA: Asserts = { equal: (a, b) => `t.is(${a}, ${b});` };
const TAP: Asserts = { equal: (a, b) => `t.equal(${a}, ${b});` };

/** `describe(suite, () => { it(name, () => { body }) })` with the given header. */
function describeIt(header: string, asserts: Asserts) {
  return (scenario: TestScenario, v: number) => {
    const tests = scenario.tests
      .map(
        (test) => `  it('${test.name}', () => {\n    ${testBody(test.outcome, v, asserts)}\n  });`,
      )
      .join('\n');
    return `${header}describe('${scenario.suite}', () => {\n${tests}\n});\n`;
  };
}

const CJS = '{ "name": "app", "private": true }\n';
const ESM = '{ "name": "app", "private": true, "type": "module" }\n';

export const NODE_TEST: JsRunner = {
  ecosystem: 'node-test',
  tool: 'node',
  fileName: (s) => `${s.file}.test.js`,
  source: describeIt(
    "const { describe, it } = require('node:test');\nconst assert = require('node:assert');\n",
    NODE_ASSERT,
  ),
  // Both reporters node prints: spec (a terminal's default) and TAP (its default in a pipe on Node 20).
  command: (_place, path, v) =>
    `node --test --test-reporter=${pick(['spec', 'tap', 'spec', 'tap'], v)} ${path}`,
  manifest: CJS,
  suites: true,
};

export const VITEST: JsRunner = {
  ecosystem: 'vitest',
  tool: 'vitest',
  fileName: (s) => `${s.file}.test.js`,
  source: describeIt("import { describe, expect, it } from 'vitest';\n", EXPECT),
  command: (_place, path, v) =>
    pick([`npx vitest run ${path}`, `npx vitest run ${path}`, 'npx vitest run'], v),
  manifest: ESM,
  suites: true,
};

export const JEST: JsRunner = {
  ecosystem: 'jest',
  tool: 'jest',
  fileName: (s) => `${s.file}.test.js`,
  source: describeIt('', EXPECT),
  command: (_place, path, v) => pick(['npx jest', `npx jest ${path}`, 'npx jest --ci'], v),
  manifest: CJS,
  suites: true,
};

export const MOCHA: JsRunner = {
  ecosystem: 'mocha',
  tool: 'mocha',
  fileName: (s) => `${s.file}.spec.js`,
  source: describeIt("const assert = require('node:assert');\n", NODE_ASSERT),
  command: (_place, path, v) => pick([`npx mocha ${path}`, `npx mocha --timeout 5000 ${path}`], v),
  manifest: CJS,
  suites: true,
};

export const AVA_RUNNER: JsRunner = {
  ecosystem: 'ava',
  tool: 'ava',
  fileName: (s) => `${s.file}.test.js`,
  source: (scenario, v) => {
    const tests = scenario.tests
      .map((test) => `test('${test.name}', (t) => {\n    ${testBody(test.outcome, v, AVA)}\n});`)
      .join('\n');
    return `const test = require('ava');\n${tests}\n`;
  },
  command: (_place, path, v) => pick(['npx ava', `npx ava ${path}`, 'npx ava --serial'], v),
  manifest: CJS,
  suites: false,
};

export const NODE_TAP: JsRunner = {
  ecosystem: 'tap',
  tool: 'tap',
  fileName: (s) => `${s.file}.test.js`,
  source: (scenario, v) => {
    const tests = scenario.tests
      .map(
        (test) =>
          `  await t.test('${test.name}', async (t) => {\n    ${testBody(test.outcome, v, TAP)}\n  });`,
      )
      .join('\n');
    return `const t = require('tap');\nt.test('${scenario.suite}', async (t) => {\n${tests}\n});\n`;
  },
  command: (_place, path, v) => pick([`npx tap ${path}`, `npx tap --disable-coverage ${path}`], v),
  manifest: CJS,
  suites: true,
};

/** node:test also runs from a fourth place, so each reporter prints the failure twice. */
const NODE_PLACES = [...PLACES, { dir: 'test/unit/', cwd: '', padLines: 3 }];

export const JS_TEST_CASES: FailureCase[] = [
  ...jsRunnerCases(NODE_TEST, NODE_PLACES),
  ...jsRunnerCases(VITEST),
  ...jsRunnerCases(JEST),
  ...jsRunnerCases(MOCHA),
  ...jsRunnerCases(AVA_RUNNER),
  ...jsRunnerCases(NODE_TAP),
];
