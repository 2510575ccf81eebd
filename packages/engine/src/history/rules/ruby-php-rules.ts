import { hasLine, type SignatureRule } from '../signature-rule';
import { type FailedTest, failedTestsKey } from './test-identity';

/** RSpec: `rspec ./spec/math_spec.rb:7 # Math adds` under `Failed examples:`. */
const RSPEC_EXAMPLE = /^rspec (\S+?)(?::\d+|\[[\d:,]+\])? # (.+)$/;
const RSPEC_TALLY = /^\d+ examples?, \d+ failures?/;
const RSPEC_BLOCK = /^\s+\d+\) (.+)$/;
/** An error raised in an example: `     NoMethodError:` on a line of its own. */
const RSPEC_ERROR = /^\s+([A-Z]\w*(?:::[A-Z]\w*)*):$/;

/** Each numbered failure's description, with the class of what failed (an expectation, else the error). */
function rspecClasses(lines: readonly string[]): Map<string, string> {
  const classes = new Map<string, string>();
  lines.forEach((line, index) => {
    const block = RSPEC_BLOCK.exec(line);
    if (!block?.[1]) return;
    let errorClass = 'expectation';
    for (let at = index + 1; at < lines.length && at < index + 40; at += 1) {
      const next = lines[at] ?? '';
      if (RSPEC_BLOCK.test(next) || /^\s+# /.test(next)) break;
      const raised = RSPEC_ERROR.exec(next)?.[1];
      if (raised) {
        errorClass = raised;
        break;
      }
    }
    classes.set(block[1].trim(), errorClass);
  });
  return classes;
}

export const rspecRule: SignatureRule = {
  family: 'rspec',
  key({ lines }) {
    if (!hasLine(lines, RSPEC_TALLY)) return undefined;
    const classes = rspecClasses(lines);
    const tests: FailedTest[] = [];
    for (const line of lines) {
      const example = RSPEC_EXAMPLE.exec(line);
      if (!example?.[2]) continue;
      const description = example[2].trim();
      tests.push({ file: example[1], path: [description], errorClass: classes.get(description) });
    }
    return failedTestsKey(tests);
  },
};

/** PHPUnit: `1) Tests\MathTest::testAdds` then what failed; `FAILURES!` / `ERRORS!` and the tally. */
const PHPUNIT_TALLY = /^Tests: \d+, Assertions: \d+/;
const PHPUNIT_TEST = /^\d+\) ([\w\\]+)::(\w+)(?: with data set .*)?$/;
const PHPUNIT_RAISED = /^([A-Z]\w*(?:Error|Exception)?): /;
/** `Failed asserting that 2 is identical to 3.`: the assertion without its values. */
function assertionClass(line: string): string | undefined {
  if (!line.startsWith('Failed asserting that ')) return undefined;
  return line
    .replace(/'[^']*'|"[^"]*"/g, '<value>')
    .replace(/\s+/g, ' ')
    .slice(0, 120);
}

export const phpunitRule: SignatureRule = {
  family: 'phpunit',
  key({ lines }) {
    if (!hasLine(lines, PHPUNIT_TALLY) || !hasLine(lines, /^(?:FAILURES|ERRORS)!$/))
      return undefined;
    const tests: FailedTest[] = [];
    lines.forEach((line, index) => {
      const test = PHPUNIT_TEST.exec(line);
      if (!test?.[1] || !test[2]) return;
      const next = (lines[index + 1] ?? '').trim();
      tests.push({
        path: [test[1].split('\\').at(-1) ?? test[1], test[2]],
        errorClass: assertionClass(next) ?? PHPUNIT_RAISED.exec(next)?.[1] ?? 'failure',
      });
    });
    return failedTestsKey(tests);
  },
};
