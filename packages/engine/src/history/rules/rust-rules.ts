import { scrubVolatile } from '../scrub-volatile';
import { allCaptures, hasLine, keyOf, type SignatureRule } from '../signature-rule';
import { type FailedTest, failedTestsKey } from './test-identity';

const CARGO_TEST_FAILED = /^test (\S+) \.\.\. FAILED$/;
/** `cargo test -q` on newer cargo: `math::tests::adds --- FAILED`. */
const CARGO_TEST_FAILED_QUIET = /^(\S+) --- FAILED$/;
const PANIC_AT = /^thread '[^']*'(?: \(\d+\))? panicked at /;
/** `thread 'math::tests::adds' (1234) panicked at src/math.rs:10:9:`, the message on the next line. */
const TEST_PANIC = /^thread '([^']+)'(?: \(\d+\))? panicked at ([^\s']+\.rs):\d+(?::\d+)?:$/;
/** Older Rust: `thread 'tests::adds' panicked at 'msg', src/lib.rs:10:9` (a long message runs on). */
const OLD_TEST_PANIC = /^thread '([^']+)' panicked at '(.*)$/;
const FAILURES_LIST = /^failures:$/;
const FAILURES_ITEM = /^ {4}(\S+)$/;

/** The panic message: on the `panicked at` line (older Rust) or the line after it. */
function panicMessage(lines: readonly string[]): string | undefined {
  const at = lines.findIndex((line) => PANIC_AT.test(line));
  if (at < 0) return undefined;
  const inline = /panicked at '([^']*)'/.exec(lines[at] ?? '')?.[1];
  return inline ?? lines[at + 1]?.trim();
}

/**
 * The class of a test's panic: the assertion (`assertion \`left == right\`
 * failed`, without the values an older Rust put after it), or the message.
 */
function panicClass(message: string): string {
  const assertion = /^(assertion (?:failed|`[^`]*` failed)|assertion failed: `\([^`]*\)`)/.exec(
    message,
  );
  return assertion?.[1] ?? message;
}

/** The tests the closing `failures:` list names (the second `failures:` heading). */
function listedFailures(lines: readonly string[]): string[] {
  const heading = lines.findLastIndex((line) => FAILURES_LIST.test(line));
  if (heading < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(heading + 1)) {
    const name = FAILURES_ITEM.exec(line)?.[1];
    if (!name) break;
    names.push(name);
  }
  return names;
}

/** cargo test: each failed test (its module path, the file it panicked in) and its panic's class. */
function cargoTests(lines: readonly string[]): FailedTest[] {
  const names = new Set([
    ...listedFailures(lines),
    ...lines.map(
      (line) => (CARGO_TEST_FAILED.exec(line) ?? CARGO_TEST_FAILED_QUIET.exec(line))?.[1],
    ),
  ]);
  names.delete(undefined);
  const panics = new Map<string, { file?: string; message: string }>();
  lines.forEach((line, index) => {
    const panic = TEST_PANIC.exec(line);
    if (panic?.[1] && !panics.has(panic[1])) {
      panics.set(panic[1], { file: panic[2], message: lines[index + 1]?.trim() ?? '' });
      return;
    }
    const old = OLD_TEST_PANIC.exec(line);
    if (!old?.[1] || !old[2] || panics.has(old[1])) return;
    const end = old[2].lastIndexOf("', ");
    panics.set(old[1], {
      ...(end >= 0 ? { file: old[2].slice(end + 3) } : {}),
      message: end >= 0 ? old[2].slice(0, end) : old[2],
    });
  });
  return [...names].map((name) => {
    const panic = panics.get(name as string);
    return {
      file: panic?.file,
      path: [name as string],
      errorClass: panic ? panicClass(panic.message) : undefined,
    };
  });
}

/** cargo test: the failed tests with their panics, else the first panic message. */
export const cargoTestRule: SignatureRule = {
  family: 'cargo-test',
  key({ lines }) {
    if (!hasLine(lines, /^test result: FAILED/)) return undefined;
    return (
      failedTestsKey(cargoTests(lines)) ??
      keyOf(allCaptures(lines, CARGO_TEST_FAILED, 5), panicMessage(lines))
    );
  },
};

const RUSTC_CODED = /^error\[(E\d{4})\]: (.+)$/;
/** The label under the code: `^^^ expected \`i32\`, found \`&str\`` (what the types were). */
const LABEL_START = /[\^-] expected /;

function expectedFound(line: string): string | undefined {
  const at = line.search(LABEL_START);
  if (at < 0) return undefined;
  const label = line.slice(at + 2);
  return label.includes(', found ') ? label : undefined;
}

/** Each coded error with its expected/found label when it has one (a set, sorted). */
function codedErrors(lines: readonly string[]): string[] {
  const found = new Set<string>();
  lines.forEach((line, index) => {
    const coded = RUSTC_CODED.exec(line);
    if (!coded) return;
    const label = lines
      .slice(index + 1, index + 12)
      .map(expectedFound)
      .find(Boolean);
    found.add(scrubVolatile(`${coded[1]} ${coded[2]}${label ? ` (${label})` : ''}`));
  });
  return [...found].sort().slice(0, 3);
}
const RUST_ERROR = /^error: (.+)$/;
const RUST_WRAPPERS = /^(?:could not compile|aborting due to|Compilation failed)/;

/** rustc and cargo: `error[E0308]: mismatched types` (a set), else cargo's first `error:` line. */
export const rustRule: SignatureRule = {
  family: 'rust',
  key({ lines, commandFamily }) {
    const coded = codedErrors(lines);
    if (coded.length > 0) return coded;
    const isCargo =
      commandFamily?.startsWith('cargo') ||
      commandFamily?.startsWith('rustc') ||
      hasLine(lines, /^\s*(?:Compiling|Updating|Blocking|Checking) \S+|Cargo\.toml|crates\.io/);
    if (!isCargo) return undefined;
    const errors = lines
      .map((line) => RUST_ERROR.exec(line)?.[1])
      .filter((text): text is string => text !== undefined && !RUST_WRAPPERS.test(text));
    return keyOf(errors[0] ?? panicMessage(lines));
  },
};
