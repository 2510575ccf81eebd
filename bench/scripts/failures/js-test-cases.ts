import { type FailureCase, type FailureRun, pad, pick } from './failure-case';

/**
 * Failing tests of the JavaScript runners (node:test with its spec and TAP
 * reporters, vitest, jest, mocha, ava, tap), run for real with the runners
 * capture-failures.ts installs from npm. Each case is one failure (which
 * test, in which file, failing how); its runs put the same failure in
 * other places: another folder and working directory, lines moved by
 * padding, other values in the failing assertion, other timings. The fix
 * label is built from the case itself (file, suite, test, kind of
 * failure), never from a signature.
 */

/** How a test ends: passes, fails an equality, fails on a string, or throws a TypeError. */
export type TestOutcome = 'pass' | 'equal' | 'string' | 'type-error';

export interface TestSpec {
  name: string;
  outcome: TestOutcome;
}

/** One failure scenario, written the same way for every runner. */
export interface TestScenario {
  name: string;
  /** The test file's base name, without the runner's suffix (`math` → `math.test.js`). */
  file: string;
  suite: string;
  tests: TestSpec[];
  /** Kept out of any tuning of the rules: the bench reports it apart. */
  heldOut?: boolean;
}

export const JS_SCENARIOS: TestScenario[] = [
  {
    name: 'adds',
    file: 'math',
    suite: 'math',
    tests: [
      { name: 'adds', outcome: 'equal' },
      { name: 'subtracts', outcome: 'pass' },
    ],
  },
  {
    name: 'subtracts',
    file: 'math',
    suite: 'math',
    tests: [
      { name: 'adds', outcome: 'pass' },
      { name: 'subtracts', outcome: 'equal' },
    ],
  },
  {
    name: 'cart-adds',
    file: 'cart',
    suite: 'math',
    tests: [
      { name: 'adds', outcome: 'equal' },
      { name: 'subtracts', outcome: 'pass' },
    ],
  },
  {
    name: 'adds-throws',
    file: 'math',
    suite: 'math',
    tests: [
      { name: 'adds', outcome: 'type-error' },
      { name: 'subtracts', outcome: 'pass' },
    ],
  },
  {
    name: 'adds-and-subtracts',
    file: 'math',
    suite: 'math',
    tests: [
      { name: 'adds', outcome: 'equal' },
      { name: 'subtracts', outcome: 'equal' },
    ],
  },
  {
    name: 'greets',
    file: 'greet',
    suite: 'greeting',
    heldOut: true,
    tests: [
      { name: 'says hello to a user', outcome: 'string' },
      { name: 'says goodbye', outcome: 'pass' },
    ],
  },
  {
    name: 'reads-config',
    file: 'math',
    suite: 'math',
    heldOut: true,
    tests: [
      { name: 'adds', outcome: 'pass' },
      { name: 'reads the config', outcome: 'type-error' },
    ],
  },
];

/** What a person fixes: the failing tests (file, suite, name) and how each failed. */
export function scenarioFix(scenario: TestScenario, withSuite = true): string {
  const failing = scenario.tests.filter((test) => test.outcome !== 'pass');
  const kind = (outcome: TestOutcome) => (outcome === 'type-error' ? 'throws' : 'assertion');
  const parts = failing.map(
    (test) =>
      `${scenario.file}>${withSuite ? `${scenario.suite}>` : ''}${test.name}:${kind(test.outcome)}`,
  );
  return `fix-failing-test:${parts.join('+')}`;
}

/** The statement a test runs, with values that change with the setting `v`. */
export interface Asserts {
  equal(actual: string, expected: string): string;
}

const NAMES = ['ada', 'bob', 'chen'];

export function testBody(outcome: TestOutcome, v: number, asserts: Asserts): string {
  switch (outcome) {
    case 'pass':
      return asserts.equal('2 - 1', '1');
    case 'equal':
      return asserts.equal(`1 + ${v + 1}`, `${v + 3}`);
    case 'string':
      return asserts.equal(`'hi ' + '${pick(NAMES, v)}'`, `'hello ${pick(NAMES, v)}'`);
    case 'type-error':
      return `const config = undefined;\n    ${asserts.equal('config.retries', '3')}`;
  }
}

/** Where one run of a scenario lives and how it is run (the "other place"). */
export interface Place {
  /** Folder of the test file, relative to the temp project. */
  dir: string;
  /** Where the command is run from, relative to the temp project (`''`: its root). */
  cwd: string;
  padLines: number;
}

export const PLACES: Place[] = [
  { dir: '', cwd: '', padLines: 0 },
  { dir: 'test/', cwd: '', padLines: 1 },
  { dir: 'packages/app/test/', cwd: 'packages/app', padLines: 2 },
];

/** `cd <cwd> && ` when the run starts elsewhere. */
export const cdTo = (place: Place) => (place.cwd ? `cd ${place.cwd} && ` : '');

/** The test file's path as the command names it, from the place's working directory. */
export function testPath(place: Place, fileName: string): string {
  const full = `${place.dir}${fileName}`;
  return place.cwd ? full.slice(place.cwd.length + 1) : full;
}

/** node_modules of the installed runners, linked wherever a run looks for them. */
export const linkRunners = (place: Place) =>
  ['ln -s "$CAPTURE_RUNNERS/node_modules" node_modules']
    .concat(place.cwd ? [`ln -s "$CAPTURE_RUNNERS/node_modules" ${place.cwd}/node_modules`] : [])
    .join(' && ');

/** A JS runner: how a test file reads, what it is named, how it is run. */
export interface JsRunner {
  ecosystem: string;
  tool: string;
  fileName(scenario: TestScenario): string;
  source(scenario: TestScenario, v: number): string;
  command(place: Place, path: string, v: number): string;
  /** package.json of the project (and of packages/app). */
  manifest: string;
  /** Whether the runner has suites (ava has none: its titles are flat). */
  suites: boolean;
}

export function jsRunnerCases(runner: JsRunner, places = PLACES): FailureCase[] {
  return JS_SCENARIOS.map((scenario) => ({
    ecosystem: runner.ecosystem,
    name: scenario.name,
    fix: scenarioFix(scenario, runner.suites),
    tool: runner.tool,
    ...(scenario.heldOut ? { heldOut: true } : {}),
    runs: places.map((place, v): FailureRun => {
      const fileName = runner.fileName(scenario);
      const files: Record<string, string> = {
        'package.json': runner.manifest,
        [`${place.dir}${fileName}`]: `${pad(place.padLines)}${runner.source(scenario, v)}`,
      };
      if (place.cwd) files[`${place.cwd}/package.json`] = runner.manifest;
      return {
        command: `${cdTo(place)}${runner.command(place, testPath(place, fileName), v)}`,
        files,
        setup: linkRunners(place),
      };
    }),
  }));
}
