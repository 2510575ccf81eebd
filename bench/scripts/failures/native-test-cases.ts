import { type FailureCase, type FailureRun, pad, pick } from './failure-case';
import {
  cdTo,
  JS_SCENARIOS,
  PLACES,
  type Place,
  scenarioFix,
  type TestOutcome,
  type TestScenario,
  testPath,
} from './js-test-cases';

/**
 * The scenarios of js-test-cases.ts (which test fails, in which file, how)
 * written for pytest, unittest and cargo test, run for real in the same
 * three places (the project's root, a test folder with the lines moved,
 * a package run from its own folder).
 */

const identifier = (name: string) => name.replace(/\W+/g, '_');
const className = (suite: string) => `Test${suite[0]!.toUpperCase()}${suite.slice(1)}`;
const NAMES = ['ada', 'bob', 'chen'];

/** A Python statement for an outcome; `check(a, b)` is the runner's equality assertion. */
function pythonBody(outcome: TestOutcome, v: number, check: (a: string, b: string) => string) {
  switch (outcome) {
    case 'pass':
      return check('2 - 1', '1');
    case 'equal':
      return check(`1 + ${v + 1}`, `${v + 3}`);
    case 'string':
      return check(`'hi ' + '${pick(NAMES, v)}'`, `'hello ${pick(NAMES, v)}'`);
    case 'type-error':
      return `config = None\n        ${check('config.retries', '3')}`;
  }
}

interface NativeRunner {
  ecosystem: string;
  tool: string;
  fileName(scenario: TestScenario): string;
  source(scenario: TestScenario, v: number): string;
  command(place: Place, path: string, v: number): string;
  comment: string;
  /** Files every project of this runner needs, besides the test file. */
  extra(scenario: TestScenario, place: Place, v: number): Record<string, string>;
}

function nativeCases(runner: NativeRunner, places = PLACES): FailureCase[] {
  return JS_SCENARIOS.map((scenario) => ({
    ecosystem: runner.ecosystem,
    name: `${scenario.name}`,
    fix: scenarioFix(scenario),
    tool: runner.tool,
    ...(scenario.heldOut ? { heldOut: true } : {}),
    runs: places.map(
      (place, v): FailureRun => ({
        command: `${cdTo(place)}${runner.command(place, testPath(place, runner.fileName(scenario)), v)}`,
        files: {
          [`${place.dir}${runner.fileName(scenario)}`]: `${pad(place.padLines, runner.comment)}${runner.source(scenario, v)}`,
          ...runner.extra(scenario, place, v),
        },
      }),
    ),
  }));
}

const PYTEST: NativeRunner = {
  ecosystem: 'pytest',
  tool: 'pytest',
  fileName: (s) => `test_${s.file}.py`,
  source: (scenario, v) => {
    const tests = scenario.tests
      .map(
        (test) =>
          `    def test_${identifier(test.name)}(self):\n        ${pythonBody(test.outcome, v, (a, b) => `assert ${a} == ${b}`)}\n`,
      )
      .join('\n');
    return `class ${className(scenario.suite)}:\n${tests}`;
  },
  command: (_place, path, v) =>
    pick([`pytest -q -p no:cacheprovider ${path}`, 'pytest -p no:cacheprovider'], v),
  comment: '#',
  extra: () => ({}),
};

const UNITTEST: NativeRunner = {
  ecosystem: 'unittest',
  tool: 'python3',
  fileName: (s) => `test_${s.file}.py`,
  source: (scenario, v) => {
    const tests = scenario.tests
      .map(
        (test) =>
          `    def test_${identifier(test.name)}(self):\n        ${pythonBody(test.outcome, v, (a, b) => `self.assertEqual(${a}, ${b})`)}\n`,
      )
      .join('\n');
    return `import unittest\n\n\nclass ${className(scenario.suite)}(unittest.TestCase):\n${tests}`;
  },
  command: (place, _path, v) =>
    place.dir.endsWith('test/')
      ? pick(['python3 -m unittest discover -s test', 'python3 -m unittest discover -s test -v'], v)
      : 'python3 -m unittest',
  comment: '#',
  extra: () => ({}),
};

const CRATES = ['shop', 'api_server', 'worker'];

function rustBody(outcome: TestOutcome, v: number): string {
  switch (outcome) {
    case 'pass':
      return 'assert_eq!(2 - 1, 1);';
    case 'equal':
      return `assert_eq!(1 + ${v + 1}, ${v + 3});`;
    case 'string':
      return `assert_eq!(format!("hi {}", "${pick(NAMES, v)}"), "hello ${pick(NAMES, v)}");`;
    case 'type-error':
      return 'let config: Option<u32> = None;\n        assert_eq!(config.unwrap(), 3);';
  }
}

/** cargo test: the scenario's file is a module of the crate; its suite a module of tests. */
const CARGO_TEST: NativeRunner = {
  ecosystem: 'cargo-test',
  tool: 'cargo',
  fileName: (s) => `src/${s.file}.rs`,
  source: (scenario, v) => {
    const tests = scenario.tests
      .map(
        (test) =>
          `    #[test]\n    fn ${identifier(test.name)}() {\n        ${rustBody(test.outcome, v)}\n    }\n`,
      )
      .join('\n');
    return `#[cfg(test)]\nmod ${scenario.suite} {\n${tests}}\n`;
  },
  command: (_place, _path, v) =>
    pick(['cargo test --offline', 'cargo test --offline -q', 'cargo test --offline --lib'], v),
  comment: '//',
  extra: (scenario, place, v) => ({
    [`${place.dir}Cargo.toml`]: `[package]\nname = "${pick(CRATES, v)}"\nversion = "0.${v}.0"\nedition = "2021"\n\n[dependencies]\n`,
    [`${place.dir}src/lib.rs`]: `${pad(v)}mod ${scenario.file};\n`,
  }),
};

/** A crate at the root (twice, the lines moved) and one in packages/app run from there. */
const CARGO_PLACES: Place[] = [
  { dir: '', cwd: '', padLines: 0 },
  { dir: '', cwd: '', padLines: 1 },
  { dir: 'packages/app/', cwd: 'packages/app', padLines: 2 },
];

export const PYTEST_TEST_CASES = nativeCases(PYTEST);
export const UNITTEST_CASES = nativeCases(UNITTEST);
export const CARGO_TEST_CASES = nativeCases(CARGO_TEST, CARGO_PLACES);
