import { pick } from './failure-case';
import type { ModelledCase } from './go-modelled';
import { JS_SCENARIOS, scenarioFix, type TestScenario, type TestSpec } from './js-test-cases';
import {
  camel,
  failing,
  lineOf,
  type ModelledRun,
  NAMES,
  ROOTS,
  type RunnerFormat,
  secs,
  title,
} from './modelled-test-helpers';
import { PHPUNIT_RUN, RSPEC_RUN } from './ruby-php-modelled';

/**
 * Test runners not installed where the corpus is made (go test, JUnit 5
 * under Maven Surefire, Playwright, RSpec, PHPUnit): the scenarios of
 * js-test-cases.ts written in the exact formats those runners print, as
 * the public build logs at each `format` address show them, in three
 * places each (another checkout folder, other line numbers, other
 * timings, a run from a sub-project). Labelled `modelled`, never counted
 * as captured.
 */

function goOutput(s: TestScenario, v: number): ModelledRun {
  const root = pick(ROOTS, v);
  const pkg = `example.com/shop/${s.file}`;
  const suite = `Test${title(s.suite)}`;
  const lines: string[] = [];
  const verbose = v === 2;
  if (verbose) {
    lines.push(`=== RUN   ${suite}`);
    for (const test of s.tests) lines.push(`=== RUN   ${suite}/${test.name.replace(/\s+/g, '_')}`);
  }
  const blocks = s.tests.map((test) => {
    const name = `${suite}/${test.name.replace(/\s+/g, '_')}`;
    const at = `${s.file}_test.go:${lineOf(s, test, v)}`;
    if (test.outcome === 'pass') return { head: `    --- PASS: ${name} (0.00s)`, body: [] };
    const body =
      test.outcome === 'string'
        ? [`        ${at}: got "hi ${pick(NAMES, v)}", want "hello ${pick(NAMES, v)}"`]
        : test.outcome === 'equal'
          ? [`        ${at}: got ${v + 2}, want ${v + 3}`]
          : [];
    return { head: `    --- FAIL: ${name} (0.00s)`, body, panic: test.outcome === 'type-error' };
  });
  lines.push(`--- FAIL: ${suite} (0.00s)`);
  for (const block of blocks) {
    if (verbose || block.head.includes('FAIL')) lines.push(block.head, ...block.body);
  }
  const panicked = s.tests.find((t) => t.outcome === 'type-error');
  if (panicked) {
    lines.push(
      'panic: runtime error: invalid memory address or nil pointer dereference [recovered]',
      '\tpanic: runtime error: invalid memory address or nil pointer dereference',
      `[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x5f4b${v}e]`,
      '',
      `goroutine ${7 + v} [running]:`,
      `testing.tRunner.func1.2({0x61a0e0, 0x7d1c5${v}})`,
      '\t/usr/local/go/src/testing/testing.go:1631 +0x24a',
      `${pkg}.${suite}.func${s.tests.indexOf(panicked) + 1}(0xc00000786${v})`,
      `\t${root}/${s.file}/${s.file}_test.go:${lineOf(s, panicked, v)} +0x1d`,
      'exit status 2',
    );
  } else lines.push('FAIL');
  lines.push(`FAIL\t${pkg}\t${secs(v)}s`, 'FAIL');
  const command = pick(['go test ./...', `go test -count=1 ./${s.file}`, 'go test -v ./...'], v);
  return { command, output: `${lines.join('\n')}\n` };
}

/** Maven Surefire 3 with JUnit 5 (`[ERROR] pkg.Class.method -- Time elapsed ... <<< FAILURE!`). */
function surefireOutput(s: TestScenario, v: number): ModelledRun {
  const root = pick(ROOTS, v);
  const cls = `${title(s.file)}Test`;
  const fqcn = `com.acme.shop.${cls}`;
  const bad = failing(s);
  const errors = bad.filter((t) => t.outcome === 'type-error');
  const failures = bad.filter((t) => t.outcome !== 'type-error');
  const why = (t: TestSpec) =>
    t.outcome === 'type-error'
      ? 'java.lang.NullPointerException: Cannot invoke "com.acme.shop.Config.retries()" because "config" is null'
      : t.outcome === 'string'
        ? `org.opentest4j.AssertionFailedError: expected: <hello ${pick(NAMES, v)}> but was: <hi ${pick(NAMES, v)}>`
        : `org.opentest4j.AssertionFailedError: expected: <${v + 3}> but was: <${v + 2}>`;
  const out = [
    '[INFO] -------------------------------------------------------',
    '[INFO]  T E S T S',
    '[INFO] -------------------------------------------------------',
    `[INFO] Running ${fqcn}`,
    `[ERROR] Tests run: ${s.tests.length}, Failures: ${failures.length}, Errors: ${errors.length}, Skipped: 0, Time elapsed: ${secs(v)} s <<< FAILURE! -- in ${fqcn}`,
  ];
  for (const t of bad) {
    out.push(
      `[ERROR] ${fqcn}.${camel(t.name)} -- Time elapsed: ${secs(v, 1)} s <<< ${t.outcome === 'type-error' ? 'ERROR' : 'FAILURE'}!`,
      why(t),
      ...(t.outcome === 'type-error'
        ? []
        : [
            '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
            '\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:182)',
          ]),
      `\tat ${fqcn}.${camel(t.name)}(${cls}.java:${lineOf(s, t, v)})`,
      '\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)',
      '',
    );
  }
  const summary = (t: TestSpec) =>
    `[ERROR]   ${cls}.${camel(t.name)}:${lineOf(s, t, v)} ${t.outcome === 'type-error' ? '» NullPointer Cannot invoke "com.acme.shop.Config.retries()" because "config" is null' : why(t).replace('org.opentest4j.AssertionFailedError: ', '')}`;
  out.push('[INFO] ', '[INFO] Results:', '[INFO] ');
  if (failures.length > 0) out.push('[ERROR] Failures: ', ...failures.map(summary));
  if (errors.length > 0) out.push('[ERROR] Errors: ', ...errors.map(summary));
  out.push(
    '[INFO] ',
    `[ERROR] Tests run: ${s.tests.length}, Failures: ${failures.length}, Errors: ${errors.length}, Skipped: 0`,
    '[INFO] ',
    '[INFO] ------------------------------------------------------------------------',
    '[INFO] BUILD FAILURE',
    '[INFO] ------------------------------------------------------------------------',
    `[INFO] Total time:  ${v + 2}.${v}41 s`,
    `[INFO] Finished at: 2026-11-2${v}T10:1${v}:12Z`,
    '[INFO] ------------------------------------------------------------------------',
    `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.${v + 1}.2:test (default-test) on project shop: There are test failures.`,
    '[ERROR] ',
    `[ERROR] Please refer to ${root}/target/surefire-reports for the individual test results.`,
    '[ERROR] -> [Help 1]',
  );
  const command = pick(['mvn test', `mvn test -Dtest=${cls}`, 'mvn -B test'], v);
  return { command, output: `${out.join('\n')}\n` };
}

function playwrightOutput(s: TestScenario, v: number): ModelledRun {
  const root = pick(ROOTS, v);
  const file = `${pick(['tests/', 'e2e/', ''], v)}${s.file}.spec.ts`;
  const id = (t: TestSpec) =>
    `[chromium] › ${file}:${lineOf(s, t, v)}:${v + 5} › ${s.suite} › ${t.name}`;
  const bar = (text: string) => `${text} ${'─'.repeat(Math.max(8, 90 - text.length))}`;
  const error = (t: TestSpec) =>
    t.outcome === 'type-error'
      ? ["TypeError: Cannot read properties of undefined (reading 'retries')"]
      : t.outcome === 'string'
        ? [
            'Error: expect(received).toBe(expected) // Object.is equality',
            '',
            `Expected: "hello ${pick(NAMES, v)}"`,
            `Received: "hi ${pick(NAMES, v)}"`,
          ]
        : [
            'Error: expect(received).toBe(expected) // Object.is equality',
            '',
            `Expected: ${v + 3}`,
            `Received: ${v + 2}`,
          ];
  const out = ['', `Running ${s.tests.length} tests using ${v + 1} worker${v > 0 ? 's' : ''}`, ''];
  s.tests.forEach((t, i) => {
    const mark = t.outcome === 'pass' ? '✓' : '✘';
    out.push(`  ${mark}  ${i + 1} ${id(t)} (${12 + v * 5 + i}ms)`);
  });
  out.push('', '');
  failing(s).forEach((t, i) => {
    out.push(
      `  ${i + 1}) ${bar(id(t))}`,
      '',
      ...error(t).map((line) => (line ? `    ${line}` : '')),
    );
    out.push('', `        at ${root}/${file}:${lineOf(s, t, v) + 1}:${v + 19}`, '');
  });
  out.push(`  ${failing(s).length} failed`);
  for (const t of failing(s)) out.push(`    ${bar(id(t))}`);
  const passed = s.tests.length - failing(s).length;
  if (passed > 0) out.push(`  ${passed} passed (${v + 1}.${v}s)`);
  const command = pick(
    [
      'npx playwright test',
      `npx playwright test ${file}`,
      'npx playwright test --project=chromium',
    ],
    v,
  );
  return { command, output: `${out.join('\n')}\n` };
}

interface RunnerSpec {
  ecosystem: string;
  tool: string;
  format: string;
  run: RunnerFormat;
}

const RUNNERS: RunnerSpec[] = [
  {
    ecosystem: 'go-test',
    tool: 'go',
    format: 'https://github.com/golang/go/issues/49317',
    run: goOutput,
  },
  {
    ecosystem: 'junit',
    tool: 'mvn',
    format: 'https://github.com/OWASP-Benchmark/BenchmarkUtils/issues/83',
    run: surefireOutput,
  },
  {
    ecosystem: 'playwright',
    tool: 'playwright',
    format: 'https://github.com/microsoft/playwright/issues/29873',
    run: playwrightOutput,
  },
  {
    ecosystem: 'rspec',
    tool: 'rspec',
    format: 'https://github.com/rust-rspec/rspec/pull/1',
    run: RSPEC_RUN,
  },
  {
    ecosystem: 'phpunit',
    tool: 'phpunit',
    format: 'https://github.com/gabrielbull/php-ups-api/issues/135',
    run: PHPUNIT_RUN,
  },
];

export const TEST_RUNNER_MODELLED: ModelledCase[] = RUNNERS.flatMap((runner) =>
  JS_SCENARIOS.map((scenario) => ({
    ecosystem: runner.ecosystem,
    name: scenario.name,
    fix: scenarioFix(scenario),
    tool: runner.tool,
    format: runner.format,
    runs: [0, 1, 2].map((v) => runner.run(scenario, v)),
    ...(scenario.heldOut ? { heldOut: true } : {}),
  })),
);
