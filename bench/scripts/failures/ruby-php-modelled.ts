import { pick } from './failure-case';
import type { TestScenario, TestSpec } from './js-test-cases';
import {
  camel,
  failing,
  lineOf,
  type ModelledRun,
  NAMES,
  ROOTS,
  secs,
  title,
} from './modelled-test-helpers';

/** RSpec 3 (progress and documentation formatters) and PHPUnit 10, as their logs print them. */

function rspecReason(t: TestSpec, v: number): string[] {
  if (t.outcome === 'type-error')
    return [
      '     Failure/Error: expect(config.retries).to eq(3)',
      '',
      '     NoMethodError:',
      "       undefined method `retries' for nil",
    ];
  const [expected, got] =
    t.outcome === 'string'
      ? [`"hello ${pick(NAMES, v)}"`, `"hi ${pick(NAMES, v)}"`]
      : [String(v + 3), String(v + 2)];
  return [
    `     Failure/Error: expect(${t.outcome === 'string' ? `"hi " + "${pick(NAMES, v)}"` : `1 + ${v + 1}`}).to eq(${expected})`,
    '',
    `       expected: ${expected}`,
    `            got: ${got}`,
    '',
    '       (compared using ==)',
  ];
}

export function RSPEC_RUN(s: TestScenario, v: number): ModelledRun {
  const spec = `./spec/${s.file}_spec.rb`;
  const described = title(s.suite);
  const bad = failing(s);
  const out: string[] = [];
  if (v === 1) {
    out.push('', described);
    for (const t of s.tests)
      out.push(`  ${t.name}${t.outcome === 'pass' ? '' : ` (FAILED - ${bad.indexOf(t) + 1})`}`);
  } else out.push(s.tests.map((t) => (t.outcome === 'pass' ? '.' : 'F')).join(''));
  out.push('', 'Failures:', '');
  bad.forEach((t, i) => {
    out.push(
      `  ${i + 1}) ${described} ${t.name}`,
      ...rspecReason(t, v),
      `     # ${spec}:${lineOf(s, t, v) + 1}:in \`block (2 levels) in <top (required)>'`,
      '',
    );
  });
  out.push(
    `Finished in ${secs(v)} seconds (files took 0.${v + 1}${v}35 seconds to load)`,
    `${s.tests.length} examples, ${bad.length} failure${bad.length > 1 ? 's' : ''}`,
    '',
    'Failed examples:',
    '',
    ...bad.map((t) => `rspec ${spec}:${lineOf(s, t, v)} # ${described} ${t.name}`),
  );
  const command = pick(
    [
      'bundle exec rspec',
      'bundle exec rspec --format documentation',
      'cd packages/app && bundle exec rspec',
    ],
    v,
  );
  return { command, output: `${out.join('\n')}\n` };
}

function phpunitReason(t: TestSpec, v: number): string[] {
  if (t.outcome === 'type-error') return ['Error: Call to a member function retries() on null'];
  if (t.outcome === 'string')
    return [
      'Failed asserting that two strings are identical.',
      '--- Expected',
      '+++ Actual',
      '@@ @@',
      `-'hello ${pick(NAMES, v)}'`,
      `+'hi ${pick(NAMES, v)}'`,
    ];
  return [`Failed asserting that ${v + 2} is identical to ${v + 3}.`];
}

export function PHPUNIT_RUN(s: TestScenario, v: number): ModelledRun {
  const root = `${pick(ROOTS, v)}${v === 2 ? '/packages/app' : ''}`;
  const cls = `${title(s.file)}Test`;
  const bad = failing(s);
  const errors = bad.filter((t) => t.outcome === 'type-error');
  const failures = bad.filter((t) => t.outcome !== 'type-error');
  const dots = s.tests
    .map((t) => (t.outcome === 'pass' ? '.' : t.outcome === 'type-error' ? 'E' : 'F'))
    .join('');
  const out = [
    `PHPUnit 10.5.${20 + v} by Sebastian Bergmann and contributors.`,
    '',
    `Runtime:       PHP 8.${v + 2}.${v + 4}`,
    `Configuration: ${root}/phpunit.xml`,
    '',
    `${dots.padEnd(64)} ${s.tests.length} / ${s.tests.length} (100%)`,
    '',
    `Time: 00:00.0${v + 1}${v}, Memory: ${v + 6}.00 MB`,
  ];
  let n = 0;
  const section = (list: TestSpec[], kind: string) => {
    if (list.length === 0) return;
    out.push(
      '',
      `There ${list.length > 1 ? `were ${list.length} ${kind}s` : `was 1 ${kind}`}:`,
      '',
    );
    for (const t of list) {
      n += 1;
      out.push(
        `${n}) Tests\\${cls}::test${title(camel(t.name))}`,
        ...phpunitReason(t, v),
        '',
        `${root}/tests/${cls}.php:${lineOf(s, t, v)}`,
        '',
      );
    }
  };
  section(errors, 'error');
  section(failures, 'failure');
  out.push(
    errors.length > 0 ? 'ERRORS!' : 'FAILURES!',
    `Tests: ${s.tests.length}, Assertions: ${s.tests.length - errors.length}${errors.length > 0 ? `, Errors: ${errors.length}` : ''}${failures.length > 0 ? `, Failures: ${failures.length}` : ''}.`,
  );
  const command = pick(
    [
      'vendor/bin/phpunit',
      `vendor/bin/phpunit tests/${cls}.php`,
      'cd packages/app && vendor/bin/phpunit',
    ],
    v,
  );
  return { command, output: `${out.join('\n')}\n` };
}
