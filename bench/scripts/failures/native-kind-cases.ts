import type { FailureCase } from './failure-case';
import { pad, pick } from './failure-case';
import type { Place } from './js-test-cases';
import {
  COLOUR,
  type KindRun,
  type KindRunner,
  type KindScenario,
  kindCase,
  ROOT_PLACES,
} from './kind-case';

/**
 * The kinds of kind-case.ts that pytest, unittest and cargo test have:
 * a fixture or setUp that fails against the same error in the test body,
 * files that fail to import, parametrized tests and subtests, long diffs,
 * one test name in two classes or modules, reporters and colours, and
 * other tests around the failing one.
 */

const PYTEST: KindRunner = {
  ecosystem: 'pytest',
  tool: 'pytest',
  command: (path, v) =>
    pick([`pytest -q -p no:cacheprovider ${path}`, 'pytest -p no:cacheprovider'], v),
  extra: () => ({}),
};

const UNITTEST: KindRunner = {
  ecosystem: 'unittest',
  tool: 'python3',
  command: (path, v) =>
    path.includes('/')
      ? `python3 -m unittest discover -s ${path.slice(0, path.lastIndexOf('/'))}${v % 2 ? ' -v' : ''}`
      : `python3 -m unittest${v % 2 ? ' -v' : ''}`,
  extra: () => ({}),
};

const CRATES = ['shop', 'api_server', 'worker'];
const CARGO: KindRunner = {
  ecosystem: 'cargo-test',
  tool: 'cargo',
  command: (_path, v) => pick(['cargo test --offline', 'cargo test --offline -q'], v),
  extra: (place, v) => ({
    [`${place.dir}Cargo.toml`]: `[package]\nname = "${pick(CRATES, v)}"\nversion = "0.${v}.0"\nedition = "2021"\n\n[dependencies]\n`,
  }),
};

const py = (v: number, body: string) => `${pad(v, '#')}${body}`;
const isUnittest = (r: KindRunner) => r === UNITTEST;

/** `class TestX` with methods (unittest: a TestCase); `tests` are `def` blocks, indented once. */
function pyClass(r: KindRunner, name: string, tests: string[], setUp?: string): string {
  const base = isUnittest(r) ? '(unittest.TestCase)' : '';
  const setup = setUp ? [`    def setUp(self):\n        ${setUp}\n`] : [];
  return `class ${name}${base}:\n${[...setup, ...tests].join('\n')}\n`;
}
const pyEq = (r: KindRunner, a: string, b: string) =>
  isUnittest(r) ? `self.assertEqual(${a}, ${b})` : `assert ${a} == ${b}`;
const pyTest = (name: string, body: string) => `    def test_${name}(self):\n        ${body}\n`;
const header = (r: KindRunner) => (isUnittest(r) ? 'import unittest\n\n\n' : 'import pytest\n\n\n');

const BROKEN = 'db = None\n        db.connect()';
const BROKEN_FIXTURE = 'db = None\n    return db.connect()';

function setupHook(r: KindRunner, inSetup: boolean): KindScenario {
  return {
    kind: 'setup-hook',
    name: inSetup ? 'in-hook' : 'in-body',
    fix: inSetup
      ? `fix-setup:store>${isUnittest(r) ? 'TestStore>setUp' : 'db'}:throws`
      : 'fix-failing-test:store>TestStore>saves:throws',
    run: (v) => {
      if (isUnittest(r)) {
        const test = pyTest('saves', inSetup ? pyEq(r, `${v} + 1`, `${v + 1}`) : BROKEN);
        return {
          files: {
            'test_store.py': py(
              v,
              `${header(r)}${pyClass(r, 'TestStore', [test], inSetup ? BROKEN : 'self.db = {}')}`,
            ),
          },
        };
      }
      const fixture = `@pytest.fixture\ndef db():\n    ${inSetup ? BROKEN_FIXTURE : 'return {}'}\n\n\n`;
      const test = `    def test_saves(self, db):\n        ${inSetup ? pyEq(r, `${v} + 1`, `${v + 1}`) : BROKEN}\n`;
      return {
        files: {
          'test_store.py': py(v, `${header(r)}${fixture}${pyClass(r, 'TestStore', [test])}`),
        },
      };
    },
  };
}

function load(
  r: KindRunner,
  name: string,
  base: string,
  how: 'syntax' | 'missing',
  heldOut = false,
): KindScenario {
  return {
    kind: 'load',
    name,
    heldOut,
    fix: `fix-load:test_${base}.py:${how === 'syntax' ? 'syntax-error' : 'missing-module:missing_helper'}`,
    run: (v) => {
      const check = pyEq(r, `${v} + 1`, `${v + 1}`);
      const test = pyTest(
        'reads',
        how === 'syntax' ? check.replace(' ==', ' ==)').replace(', ', ', (') : check,
      );
      const imports = how === 'missing' ? 'import missing_helper\n' : '';
      const cls = `Test${base[0]?.toUpperCase()}${base.slice(1)}`;
      return {
        files: { [`test_${base}.py`]: py(v, `${header(r)}${imports}${pyClass(r, cls, [test])}`) },
      };
    },
  };
}

function parametrized(r: KindRunner, name: string, wrong: number, heldOut = false): KindScenario {
  return {
    kind: 'parametrized',
    name,
    heldOut,
    fix: isUnittest(r)
      ? `fix-failing-test:add>TestAdd>adds[n=${wrong}]:assertion`
      : `fix-failing-test:add>TestAdd>adds[${wrong}-${wrong}-${2 * wrong + 1}]:assertion`,
    run: (v) => {
      const rows = [1, 2, 3]
        .map((n) => `(${n}, ${n}, ${n === wrong ? 2 * n + 1 : 2 * n})`)
        .join(', ');
      const body = isUnittest(r)
        ? `    def test_adds(self):\n        for a, b, total in [${rows}]:\n            with self.subTest(n=a):\n                self.assertEqual(a + b, total)\n`
        : `    @pytest.mark.parametrize('a, b, total', [${rows}])\n    def test_adds(self, a, b, total):\n        assert a + b == total\n`;
      return { files: { 'test_add.py': py(v, `${header(r)}${pyClass(r, 'TestAdd', [body])}`) } };
    },
  };
}

function longDiff(r: KindRunner): KindScenario {
  return {
    kind: 'long-diff',
    name: 'report',
    fix: 'fix-failing-test:report>TestReport>builds_the_report:assertion',
    run: (v) => {
      const body = `actual = [{'id': i, 'name': f'item {i}', 'qty': i % 7} for i in range(150)]\n        expected = [dict(row, qty=${90 + v}) if row['id'] % ${7 + v} == 3 else row for row in actual]\n        ${pyEq(r, 'actual', 'expected')}`;
      return {
        files: {
          'test_report.py': py(
            v,
            `${header(r)}${pyClass(r, 'TestReport', [pyTest('builds_the_report', body)])}`,
          ),
        },
      };
    },
  };
}

function sameName(r: KindRunner, failing: 'Cart' | 'Invoice', heldOut = false): KindScenario {
  return {
    kind: 'same-name',
    name: failing.toLowerCase(),
    heldOut,
    fix: `fix-failing-test:price>Test${failing}>totals:assertion`,
    run: (v) => {
      const cls = (name: string) =>
        pyClass(r, `Test${name}`, [
          pyTest('totals', pyEq(r, `${v} + 2`, name === failing ? `${v + 3}` : `${v + 2}`)),
        ]);
      return {
        files: { 'test_price.py': py(v, `${header(r)}${cls('Cart')}\n\n${cls('Invoice')}`) },
      };
    },
  };
}

const PYTEST_REPORTERS = [
  (path: string) => `pytest -q -p no:cacheprovider ${path}`,
  (path: string) => `pytest -p no:cacheprovider --color=yes ${path}`,
  (path: string) => `pytest -v -p no:cacheprovider ${path}`,
  (path: string) => `pytest -rA --tb=short -p no:cacheprovider ${path}`,
];

function reporter(r: KindRunner): KindScenario {
  return {
    kind: 'reporter',
    name: 'checkout',
    places: ROOT_PLACES,
    fix: 'fix-failing-test:total>TestCheckout>sums_the_cart:assertion',
    run: (v): KindRun => {
      const tests = [
        pyTest('applies_a_coupon', pyEq(r, '2 - 1', '1')),
        pyTest('sums_the_cart', pyEq(r, `${v} + 1`, `${v + 2}`)),
      ];
      const files = { 'test_total.py': py(v, `${header(r)}${pyClass(r, 'TestCheckout', tests)}`) };
      if (isUnittest(r))
        return {
          files,
          command: () =>
            pick(
              [
                'python3 -m unittest',
                'python3 -m unittest -v',
                'python3 -m unittest -b',
                'python3 -m unittest -v -b',
              ],
              v,
            ),
        };
      return { files, command: pick(PYTEST_REPORTERS, v) };
    },
  };
}

function ordering(r: KindRunner): KindScenario {
  return {
    kind: 'ordering',
    name: 'ledger',
    heldOut: true,
    fix: 'fix-failing-test:ledger>TestLedger>balances:assertion',
    run: (v) => {
      const before = Array.from({ length: 1 + 3 * v }, (_, i) =>
        pyTest(
          `keeps_entry_${i + 1}`,
          `time.sleep(${((i * 7 + v * 5) % 23) / 1000})\n        ${pyEq(r, '1', '1')}`,
        ),
      );
      const tests = [...before, pyTest('balances', pyEq(r, `${v} + 10`, `${v + 11}`))];
      return {
        files: {
          'test_ledger.py': py(v, `import time\n${header(r)}${pyClass(r, 'TestLedger', tests)}`),
        },
      };
    },
  };
}

const pythonScenarios = (r: KindRunner): KindScenario[] => [
  setupHook(r, true),
  setupHook(r, false),
  load(r, 'syntax', 'parse', 'syntax'),
  load(r, 'missing', 'parse', 'missing'),
  load(r, 'missing-other', 'format', 'missing', true),
  parametrized(r, 'second', 2),
  parametrized(r, 'third', 3, true),
  longDiff(r),
  sameName(r, 'Cart'),
  sameName(r, 'Invoice', true),
  reporter(r),
  ordering(r),
];

/** cargo: a crate whose lib.rs holds the tests (its modules are the suites). */
const CARGO_PLACES: Place[] = [
  { dir: '', cwd: '', padLines: 0 },
  { dir: '', cwd: '', padLines: 1 },
  { dir: 'packages/app/', cwd: 'packages/app', padLines: 2 },
];
const rsTest = (name: string, body: string) =>
  `    #[test]\n    fn ${name}() {\n        ${body}\n    }\n`;
const rsMod = (name: string, tests: string[]) =>
  `#[cfg(test)]\nmod ${name} {\n${tests.join('\n')}}\n`;
const lib = (v: number, body: string) => ({ 'src/lib.rs': `${pad(v)}${body}` });

const CARGO_SCENARIOS: KindScenario[] = [
  {
    kind: 'long-diff',
    name: 'report',
    fix: 'fix-failing-test:lib>report>builds_the_report:assertion',
    places: CARGO_PLACES,
    run: (v) => ({
      files: lib(
        v,
        rsMod('report', [
          rsTest(
            'builds_the_report',
            `let actual: Vec<u32> = (0..150).map(|i| i % 7).collect();\n        let expected: Vec<u32> = (0..150).map(|i| if i % ${7 + v} == 3 { ${90 + v} } else { i % 7 }).collect();\n        assert_eq!(actual, expected);`,
          ),
        ]),
      ),
    }),
  },
  ...(['cart', 'invoice'] as const).map(
    (failing): KindScenario => ({
      kind: 'same-name',
      name: failing,
      heldOut: failing === 'invoice',
      fix: `fix-failing-test:lib>${failing}>totals:assertion`,
      places: CARGO_PLACES,
      run: (v) => ({
        files: lib(
          v,
          ['cart', 'invoice']
            .map((m) =>
              rsMod(m, [
                rsTest('totals', `assert_eq!(${v} + 2, ${m === failing ? v + 3 : v + 2});`),
              ]),
            )
            .join('\n'),
        ),
      }),
    }),
  ),
  {
    kind: 'reporter',
    name: 'checkout',
    places: ROOT_PLACES,
    fix: 'fix-failing-test:lib>checkout>sums_the_cart:assertion',
    run: (v) => ({
      files: lib(
        v,
        rsMod('checkout', [
          rsTest('applies_a_coupon', 'assert_eq!(2 - 1, 1);'),
          rsTest('sums_the_cart', `assert_eq!(${v} + 1, ${v + 2});`),
        ]),
      ),
      command: () =>
        pick(
          [
            'cargo test --offline',
            'cargo test --offline --color always',
            'cargo test --offline -q',
            'cargo test --offline -- --test-threads=1',
          ],
          v,
        ),
      ...(v === 1 ? { env: COLOUR } : {}),
    }),
  },
  {
    kind: 'ordering',
    name: 'ledger',
    heldOut: true,
    fix: 'fix-failing-test:lib>ledger>balances:assertion',
    places: CARGO_PLACES,
    run: (v) => {
      const before = Array.from({ length: 1 + 3 * v }, (_, i) =>
        rsTest(`keeps_entry_${i + 1}`, 'assert_eq!(1, 1);'),
      );
      return {
        files: lib(
          v,
          rsMod('ledger', [...before, rsTest('balances', `assert_eq!(${v} + 10, ${v + 11});`)]),
        ),
      };
    },
  },
];

export const NATIVE_KIND_CASES: FailureCase[] = [
  ...pythonScenarios(PYTEST).map((s) => kindCase(PYTEST, s)),
  ...pythonScenarios(UNITTEST).map((s) => kindCase(UNITTEST, s)),
  ...CARGO_SCENARIOS.map((s) => kindCase(CARGO, s)),
];
