import { scrubVolatile } from '../scrub-volatile';
import { allCaptures, hasLine, keyOf, type SignatureRule } from '../signature-rule';

const CARGO_TEST_FAILED = /^test (\S+) \.\.\. FAILED$/;
const PANIC_AT = /^thread '[^']*' panicked at /;

/** The panic message: on the `panicked at` line (older Rust) or the line after it. */
function panicMessage(lines: readonly string[]): string | undefined {
  const at = lines.findIndex((line) => PANIC_AT.test(line));
  if (at < 0) return undefined;
  const inline = /panicked at '([^']*)'/.exec(lines[at] ?? '')?.[1];
  return inline ?? lines[at + 1]?.trim();
}

/** cargo test: the failed tests and the first panic message. */
export const cargoTestRule: SignatureRule = {
  family: 'cargo-test',
  key({ lines }) {
    if (!hasLine(lines, /^test result: FAILED/)) return undefined;
    return keyOf(allCaptures(lines, CARGO_TEST_FAILED, 5), panicMessage(lines));
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
