import { hasLine, type SignatureRule } from '../signature-rule';
import { type FailedTest, failedTestsKey } from './test-identity';

/**
 * JUnit tests as Maven Surefire and Gradle print them. The test is its
 * class (without the package: the class is the file) and method; what
 * failed is the exception's simple class name (`AssertionFailedError`,
 * `NullPointerException`).
 */

/** Surefire 3: `[ERROR] com.acme.MathTest.adds -- Time elapsed: 0.01 s <<< FAILURE!`. */
const SUREFIRE_3 =
  /^\[ERROR\] ([\w$.]+)\.([\w$]+)(?:\(\))? -- Time elapsed: .* <<< (?:FAILURE|ERROR)!$/;
/** Surefire 2: `adds(com.acme.MathTest)  Time elapsed: 0.01 sec  <<< FAILURE!`. */
const SUREFIRE_2 =
  /^(?:\[ERROR\] )?([\w$]+)\(([\w$.]+)\)\s+Time elapsed: .* <<< (?:FAILURE|ERROR)!$/;
/** Surefire 3 on older JUnit 5 setups: `[ERROR] adds  Time elapsed: …`, the class in the tally above. */
const SUREFIRE_METHOD = /^\[ERROR\] ([\w$]+)(?:\(\))?\s+Time elapsed: .* <<< (?:FAILURE|ERROR)!$/;
const SUREFIRE_TALLY = /Tests run: \d+, Failures: \d+, Errors: \d+.* (?:- |-- )in ([\w$.]+)$/;
const EXCEPTION_LINE = /^([a-z][\w$]*(?:\.[\w$]+)+(?:Error|Exception|Failure|Throwable))\b/;
/** Gradle: `MathTest > adds() FAILED`, then `    org.opentest4j.AssertionFailedError at MathTest.java:12`. */
const GRADLE_TEST = /^([\w$.]+) > (.+?) FAILED$/;
const GRADLE_CAUSE = /^\s+([a-z][\w$]*(?:\.[\w$]+)+)(?: at |:|$)/;

const simpleName = (name: string) => name.split('.').at(-1) ?? name;
const methodName = (name: string) => name.replace(/\(\)$/, '').trim();

/** The exception on the line after a Surefire test header, as a simple class name. */
function exceptionAfter(lines: readonly string[], index: number): string | undefined {
  const match = EXCEPTION_LINE.exec(lines[index + 1] ?? '');
  return match?.[1] ? simpleName(match[1]) : undefined;
}

function surefireTests(lines: readonly string[]): FailedTest[] {
  const tests: FailedTest[] = [];
  let tallyClass: string | undefined;
  lines.forEach((line, index) => {
    tallyClass = SUREFIRE_TALLY.exec(line)?.[1] ?? tallyClass;
    const three = SUREFIRE_3.exec(line);
    const two = three ? null : SUREFIRE_2.exec(line);
    const method = three || two ? null : SUREFIRE_METHOD.exec(line);
    const [testClass, name] = three
      ? [three[1], three[2]]
      : two
        ? [two[2], two[1]]
        : method
          ? [tallyClass, method[1]]
          : [undefined, undefined];
    if (!testClass || !name) return;
    tests.push({ path: [simpleName(testClass), name], errorClass: exceptionAfter(lines, index) });
  });
  return tests;
}

function gradleTests(lines: readonly string[]): FailedTest[] {
  const tests: FailedTest[] = [];
  lines.forEach((line, index) => {
    const test = GRADLE_TEST.exec(line);
    if (!test?.[1] || !test[2]) return;
    const cause = GRADLE_CAUSE.exec(lines[index + 1] ?? '')?.[1];
    tests.push({
      path: [simpleName(test[1]), ...test[2].split(' > ').map(methodName)],
      errorClass: cause ? simpleName(cause) : undefined,
    });
  });
  return tests;
}

export const junitRule: SignatureRule = {
  family: 'junit',
  key({ lines }) {
    if (hasLine(lines, /<<< (?:FAILURE|ERROR)!$/)) return failedTestsKey(surefireTests(lines));
    if (hasLine(lines, /^\d+ tests completed, \d+ failed/) || hasLine(lines, GRADLE_TEST))
      return failedTestsKey(gradleTests(lines));
    return undefined;
  },
};
