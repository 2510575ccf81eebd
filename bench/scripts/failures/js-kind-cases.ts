import type { FailureCase } from './failure-case';
import { pad, pick } from './failure-case';
import { linkRunners, type Place } from './js-test-cases';
import {
  COLOUR,
  type KindRun,
  type KindRunner,
  type KindScenario,
  kindCase,
  ROOT_PLACES,
} from './kind-case';

/**
 * The kinds of kind-case.ts for the JS runners the capture installs
 * (vitest, jest, mocha, ava) and node's test runner (spec and TAP). A
 * dialect says how each runner writes a suite, a test, a hook, an
 * assertion and a timeout; the scenarios are written once over it.
 */
interface Dialect {
  runner: KindRunner;
  esm: boolean;
  header: string;
  suffix: string;
  eq(actual: string, expected: string): string;
  deepEq(actual: string, expected: string): string;
  /** An async test that fails when it runs longer than `ms`. */
  slow(name: string, ms: number, body: string): string;
  /** Runs of the same failure with other reporters and colours. */
  reporters: { command: (path: string) => string; env?: Record<string, string | undefined> }[];
}

const CJS = '{ "name": "app", "private": true }\n';
const ESM = '{ "name": "app", "private": true, "type": "module" }\n';

function jsRunner(ecosystem: string, tool: string, esm: boolean, command: KindRunner['command']) {
  return {
    ecosystem,
    tool,
    command,
    extra: (place: Place) => ({
      'package.json': esm ? ESM : CJS,
      ...(place.cwd ? { [`${place.cwd}/package.json`]: esm ? ESM : CJS } : {}),
    }),
    setup: linkRunners,
  } satisfies KindRunner;
}

const expectEq = (a: string, b: string) => `expect(${a}).toBe(${b});`;
const expectDeep = (a: string, b: string) => `expect(${a}).toEqual(${b});`;
const assertEq = (a: string, b: string) => `assert.strictEqual(${a}, ${b});`;
const assertDeep = (a: string, b: string) => `assert.deepStrictEqual(${a}, ${b});`;
const SLEEP = (ms: number) => `await new Promise((resolve) => setTimeout(resolve, ${ms}));`;

const VITEST: Dialect = {
  runner: jsRunner('vitest', 'vitest', true, (path) => `npx vitest run ${path}`),
  esm: true,
  header: "import { beforeEach, describe, expect, it } from 'vitest';\n",
  suffix: '.test.js',
  eq: expectEq,
  deepEq: expectDeep,
  slow: (name, ms, body) => `it('${name}', async () => {\n    ${body}\n  }, ${ms});`,
  reporters: [
    { command: (path) => `npx vitest run ${path}` },
    { command: (path) => `npx vitest run ${path}`, env: COLOUR },
    { command: (path) => `npx vitest run ${path} --reporter=verbose` },
    { command: (path) => `npx vitest run ${path} --reporter=dot` },
  ],
};

const JEST: Dialect = {
  runner: jsRunner('jest', 'jest', false, (path, v) => pick([`npx jest ${path}`, 'npx jest'], v)),
  esm: false,
  header: '',
  suffix: '.test.js',
  eq: expectEq,
  deepEq: expectDeep,
  slow: (name, ms, body) => `it('${name}', async () => {\n    ${body}\n  }, ${ms});`,
  reporters: [
    { command: (path) => `npx jest ${path}` },
    { command: (path) => `npx jest ${path}`, env: COLOUR },
    { command: (path) => `npx jest --verbose ${path}` },
    { command: (path) => `npx jest --ci --verbose ${path}`, env: COLOUR },
  ],
};

const MOCHA: Dialect = {
  runner: jsRunner('mocha', 'mocha', false, (path) => `npx mocha ${path}`),
  esm: false,
  header: "const assert = require('node:assert');\n",
  suffix: '.spec.js',
  eq: assertEq,
  deepEq: assertDeep,
  slow: (name, ms, body) =>
    `it('${name}', async function () {\n    this.timeout(${ms});\n    ${body}\n  });`,
  reporters: [
    { command: (path) => `npx mocha ${path}` },
    { command: (path) => `npx mocha --color ${path}`, env: COLOUR },
    { command: (path) => `npx mocha --reporter dot ${path}` },
    { command: (path) => `npx mocha --reporter list ${path}` },
  ],
};

const NODE_TEST: Dialect = {
  runner: jsRunner('node-test', 'node', false, (path, v) =>
    pick(
      [`node --test --test-reporter=spec ${path}`, `node --test --test-reporter=tap ${path}`],
      v,
    ),
  ),
  esm: false,
  header:
    "const { beforeEach, describe, it } = require('node:test');\nconst assert = require('node:assert');\n",
  suffix: '.test.js',
  eq: assertEq,
  deepEq: assertDeep,
  slow: (name, ms, body) => `it('${name}', { timeout: ${ms} }, async () => {\n    ${body}\n  });`,
  reporters: [
    { command: (path) => `node --test --test-reporter=spec ${path}` },
    { command: (path) => `node --test --test-reporter=spec ${path}`, env: COLOUR },
    { command: (path) => `node --test --test-reporter=tap ${path}` },
    { command: (path) => `node --test --test-reporter=dot ${path}` },
  ],
};

const AVA: Dialect = {
  runner: jsRunner('ava', 'ava', false, (path) => `npx ava ${path}`),
  esm: false,
  header: "const test = require('ava');\n",
  suffix: '.test.js',
  eq: (a, b) => `t.is(${a}, ${b});`,
  deepEq: (a, b) => `t.deepEqual(${a}, ${b});`,
  slow: (name, ms, body) =>
    `test('${name}', async (t) => {\n    t.timeout(${ms});\n    ${body}\n    t.pass();\n  });`,
  reporters: [
    { command: (path) => `npx ava ${path}` },
    { command: (path) => `npx ava ${path}`, env: COLOUR },
    { command: (path) => `npx ava --tap ${path}` },
    { command: (path) => `npx ava --verbose ${path}` },
  ],
};

/** `describe(suite, () => { ...tests })`; ava has no suites: its tests stand alone. */
function suite(d: Dialect, name: string, tests: string[]): string {
  if (d === AVA) return `${tests.map((t) => t.replace(/^it\(/, 'test(')).join('\n')}\n`;
  return `describe('${name}', () => {\n  ${tests.join('\n  ')}\n});\n`;
}
const it = (d: Dialect, name: string, body: string) =>
  d === AVA
    ? `test('${name}', (t) => {\n    ${body}\n  });`
    : `it('${name}', () => {\n    ${body}\n  });`;
const file = (d: Dialect, base: string, v: number, body: string): Record<string, string> => ({
  [`${base}${d.suffix}`]: `${pad(v)}${d.header}${body}`,
});
const kindFix = (d: Dialect, file: string, suitePath: string, how: string) =>
  `fix-failing-test:${file}>${d === AVA ? '' : `${suitePath}>`}${how}`;

type Scenario = (d: Dialect) => KindScenario | undefined;

const timeout =
  (name: string, slow: string, heldOut = false): Scenario =>
  (d) => ({
    kind: 'timeout',
    name,
    heldOut,
    fix: kindFix(d, 'queue', 'queue', `${slow}:timeout`),
    run: (v) => {
      const test = (n: string) =>
        n === slow ? d.slow(n, 60 + 40 * v, SLEEP(600)) : d.slow(n, 2000, SLEEP(1));
      return { files: file(d, 'queue', v, suite(d, 'queue', ['drains', 'waits'].map(test))) };
    },
  });

const BROKEN = 'const db = undefined;\n    db.connect();';
const setupHook =
  (name: string, inHook: boolean): Scenario =>
  (d) =>
    d === AVA
      ? undefined
      : {
          kind: 'setup-hook',
          name,
          fix: inHook
            ? 'fix-setup:store>store>beforeEach:throws'
            : kindFix(d, 'store', 'store', 'saves:throws'),
          run: (v) => {
            const hook = `beforeEach(() => {\n    ${inHook ? BROKEN : 'const db = {};'}\n  });`;
            const test = it(d, 'saves', inHook ? d.eq(`${v} + 1`, `${v + 1}`) : BROKEN);
            return { files: file(d, 'store', v, suite(d, 'store', [hook, test])) };
          },
        };

const snapshot =
  (name: string, failing: string, heldOut = false): Scenario =>
  (d) =>
    d !== VITEST && d !== JEST
      ? undefined
      : {
          kind: 'snapshot',
          name,
          heldOut,
          fix: kindFix(d, 'render', 'render', `${failing}:snapshot`),
          run: (v) => {
            const test = (n: string, tag: string) =>
              it(
                d,
                n,
                `const html = '<${tag}>' + '${n === failing ? pick(['hi', 'hey', 'yo'], v) : 'hello'}' + '</${tag}>';\n    expect(html).toMatchInlineSnapshot(\`"<${tag}>hello</${tag}>"\`);`,
              );
            const body = suite(d, 'render', [
              test('renders bold', 'b'),
              test('renders italic', 'i'),
            ]);
            return { files: file(d, 'render', v, body) };
          },
        };

const afterTest: Scenario = (d) => ({
  kind: 'after-test',
  name: 'timer-throws',
  fix: 'fix-leak:timer>timer>schedules:throws',
  run: (v) => {
    const leak = it(
      d,
      'schedules',
      `setTimeout(() => {\n      throw new TypeError('queue closed');\n    }, ${5 + v});\n    ${d.eq('1', '1')}`,
    );
    const wait = d.slow('waits', 2000, `${SLEEP(80)}\n    ${d.eq('1', '1')}`);
    return { files: file(d, 'timer', v, suite(d, 'timer', [leak, wait])) };
  },
});

const load =
  (name: string, base: string, how: 'syntax' | 'missing', heldOut = false): Scenario =>
  (d) => ({
    kind: 'load',
    name,
    heldOut,
    fix: `fix-load:${base}${d.suffix}:${how === 'syntax' ? 'syntax-error' : 'missing-module:./missing-helper'}`,
    run: (v) => {
      const missing = d.esm
        ? "import { helper } from './missing-helper.js';\n"
        : "const { helper } = require('./missing-helper');\n";
      const check = d.eq(`${v} + 1`, `${v + 1}`);
      const test = it(d, 'reads', how === 'syntax' ? check.replace(');', ';') : check);
      const body = `${how === 'missing' ? missing : ''}${suite(d, base, [test])}`;
      return { files: file(d, base, v, body) };
    },
  });

const parametrized =
  (name: string, wrong: number, heldOut = false): Scenario =>
  (d) =>
    d === AVA
      ? undefined
      : {
          kind: 'parametrized',
          name,
          heldOut,
          fix: kindFix(d, 'add', 'add', `adds ${wrong} + ${wrong}:assertion`),
          run: (v) => {
            const rows = [1, 2, 3].map((n) => `[${n}, ${n}, ${n === wrong ? 2 * n + 1 : 2 * n}]`);
            const table = `[${rows.join(', ')}]`;
            const each =
              d === VITEST || d === JEST
                ? `it.each(${table})('adds %i + %i', (a, b, sum) => {\n    ${d.eq('a + b', 'sum')}\n  });`
                : `for (const [a, b, sum] of ${table}) {\n    it(\`adds \${a} + \${b}\`, () => {\n      ${d.eq('a + b', 'sum')}\n    });\n  }`;
            return { files: file(d, 'add', v, suite(d, 'add', [each])) };
          },
        };

const longDiff: Scenario = (d) => ({
  kind: 'long-diff',
  name: 'report',
  fix: kindFix(d, 'report', 'report', 'builds the report:assertion'),
  run: (v) => {
    const rows = `Array.from({ length: 150 }, (_, i) => ({ id: i, name: 'item ' + i, qty: i % 7 }))`;
    const body = `const actual = ${rows};\n    const expected = actual.map((row) => (row.id % ${7 + v} === 3 ? { ...row, qty: ${90 + v} } : row));\n    ${d.deepEq('actual', 'expected')}`;
    return { files: file(d, 'report', v, suite(d, 'report', [it(d, 'builds the report', body)])) };
  },
});

const sameName =
  (failing: 'cart' | 'invoice', heldOut = false): Scenario =>
  (d) =>
    d === AVA
      ? undefined
      : {
          kind: 'same-name',
          name: failing,
          heldOut,
          fix: kindFix(d, 'price', failing, 'totals:assertion'),
          run: (v) => {
            const block = (s: string) =>
              suite(d, s, [
                it(d, 'totals', d.eq(`${v} + 2`, s === failing ? `${v + 3}` : `${v + 2}`)),
              ]);
            return { files: file(d, 'price', v, `${block('cart')}${block('invoice')}`) };
          },
        };

const reporter: Scenario = (d) => ({
  kind: 'reporter',
  name: 'checkout',
  places: ROOT_PLACES,
  fix: kindFix(d, 'total', 'checkout', 'sums the cart:assertion'),
  run: (v): KindRun => {
    const tests = [
      it(d, 'applies a coupon', d.eq('2 - 1', '1')),
      it(d, 'sums the cart', d.eq(`${v} + 1`, `${v + 2}`)),
    ];
    const way = pick(d.reporters, v);
    return {
      files: file(d, 'total', v, suite(d, 'checkout', tests)),
      command: way.command,
      ...(way.env ? { env: way.env } : {}),
    };
  },
});

const ordering: Scenario = (d) => ({
  kind: 'ordering',
  name: 'ledger',
  heldOut: true,
  fix: kindFix(d, 'ledger', 'ledger', 'balances:assertion'),
  run: (v) => {
    const before = Array.from({ length: 1 + 3 * v }, (_, i) =>
      d.slow(`keeps entry ${i + 1}`, 2000, `${SLEEP((i * 7 + v * 5) % 23)}\n    ${d.eq('1', '1')}`),
    );
    const failing = it(d, 'balances', d.eq(`${v} + 10`, `${v + 11}`));
    return { files: file(d, 'ledger', v, suite(d, 'ledger', [...before, failing])) };
  },
});

const SCENARIOS: Scenario[] = [
  timeout('waits', 'waits'),
  timeout('drains', 'drains', true),
  setupHook('in-hook', true),
  setupHook('in-body', false),
  snapshot('bold', 'renders bold'),
  snapshot('italic', 'renders italic', true),
  afterTest,
  load('syntax', 'parse', 'syntax'),
  load('missing', 'parse', 'missing'),
  load('missing-other', 'format', 'missing', true),
  parametrized('second', 2),
  parametrized('third', 3, true),
  longDiff,
  sameName('cart'),
  sameName('invoice', true),
  reporter,
  ordering,
];

export const JS_KIND_CASES: FailureCase[] = [VITEST, JEST, MOCHA, NODE_TEST, AVA].flatMap((d) =>
  SCENARIOS.map((scenario) => scenario(d))
    .filter((s): s is KindScenario => s !== undefined)
    .map((s) => kindCase(d.runner, s)),
);
