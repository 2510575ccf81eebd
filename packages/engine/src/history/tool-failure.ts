import { stripAnsi } from './scrub-volatile';

/**
 * A tool event reduced to what failure detection needs. What each harness
 * gives (see docs/HISTORY.md "What each harness tells"):
 * - Claude Code PostToolUse: `tool_response` is the tool's result; for Bash
 *   `{ stdout, stderr, interrupted }`, no exit code. A call that fails fires
 *   PostToolUseFailure instead (an `error` text), which Cairn does not record yet.
 * - Codex PostToolUse: `tool_response` as the tool returned it; a shell
 *   call's text starts with `Exit code: N` when Codex formats it so, which is
 *   read as the exit code; MCP results carry `isError`.
 * - OpenCode `tool.execute.after`: Cairn records only the output text
 *   (`output.output`, or MCP `content` texts), so no exit code survives.
 * - OpenClaw `after_tool_call`: an `error` field when the tool threw
 *   (recorded as `{ error }`); `result.details` may carry an `exitCode`.
 */
export interface ToolEvent {
  /** The harness's tool name (`Bash`, `bash`, `exec`, `mcp__x__y`). */
  tool: string;
  /** The command line, for shell tools. */
  command?: string;
  /** Only when the harness (or the tool's output) states one. */
  exitCode?: number;
  /** What the tool printed or returned, as text. */
  output: string;
  /** Standard error, when the harness keeps it apart. */
  stderr?: string;
  /** The harness's or tool's error text (a thrown tool, an MCP `isError` result). */
  error?: string;
}

export type FailureReason =
  | 'exit-code'
  | 'error-field'
  | 'stderr-error'
  | 'test-summary'
  | 'output-error';

export interface ToolFailure {
  failed: boolean;
  /** Every sign found, in this order: exit code, error field, stderr, test summary, output error. */
  reasons: FailureReason[];
  /** The text to take a signature of: error, then stderr, then output. */
  errorText: string;
}

/**
 * Every pattern below reads one line (cut at 1,000 characters) and is
 * linear: no `\s` that could run across lines, no two unbounded runs that
 * could trade characters.
 */
const LINE_CHARS = 1000;
const READ_CHARS = 256 * 1024;

/** Words that mean an error on stderr (progress lines like `Cloning into` do not match). */
const STDERR_ERROR =
  /^[ \t]*(?:error|fatal|panic|traceback)\b|\b(?:[A-Z]\w*Error|Exception|ERR!|ERR_[A-Z_]+|E\d{3,4}\b|command not found|No such file or directory|Permission denied|[Cc]annot find|not found)/i;

/** pytest's closing tally: `===== 1 failed, 3 passed in 0.12s =====`. */
const isPytestTally = (line: string) =>
  line.startsWith('=') && line.endsWith('=') && /\b\d+ (?:failed|errors?)\b/.test(line);

/** Test runners' summaries of a failed run. */
const TEST_SUMMARIES: readonly RegExp[] = [
  /^[ \t]*(?:Test Files|Tests)[ \t]+\d+ failed|^[ \t]*Errors[ \t]+\d+ errors?$/, // vitest
  /^(?:Tests|Test Suites):[ \t]+\d+ failed/, // jest (a file that does not load fails its suite only)
  /^(?:--- FAIL: |FAIL[ \t])/, // go test
  /^test result: FAILED/, // cargo test
  /^[ \t]*\d+ failing[ \t]*$|^[ \t]*Exception during run: /, // mocha (a file that does not load)
  /^\[ERROR\] Tests run: \d+, Failures: [1-9]|^\[INFO\] BUILD FAILURE/, // maven
  /^FAILURE: Build failed/, // gradle
  /^[ \t]*\d+ (?:tests? failed|uncaught exceptions?|unhandled rejections?)\b/, // ava
  /^\u2139 (?:fail|cancelled) [1-9]|^# (?:fail|cancelled) [1-9]/, // node:test (spec, TAP; a timeout is cancelled)
  /^Failed tests:$/, // node:test's dot reporter
  /^not ok \d+/, // TAP: a top-level test failed (node:test, tap)
  /^FAILED \((?:failures|errors)=\d+/, // unittest
  /^\d+ examples?, [1-9]\d* failures?/, // rspec
  /^(?:FAILURES|ERRORS)!$/, // phpunit
  /^[ \t]+\d+ failed$/, // playwright
  /^(?:FAILED|ERROR) \S+::\S|^\d+ (?:failed|errors?)\b.* in [\d.]+s$/, // pytest -q
];

/**
 * Lines that only a failure prints, looked for in the output when no exit
 * code is known (OpenCode and Claude Code merge or drop it): a shell's
 * "command not found", a traceback, a package manager's error code, a
 * compiler's error line, an uncaught exception.
 */
const OUTPUT_ERRORS: readonly RegExp[] = [
  /: command not found$|^zsh: command not found: |^sh: \d+: \S+: not found$/,
  /^Traceback \(most recent call last\):/,
  /^npm (?:ERR!|error) code /,
  /(?:^|[ \t])ERR_PNPM_[A-Z_]+[ \t]/,
  /^error(?:\[E\d{4}\])?: /,
  /^fatal: /,
  /\berror TS\d{3,5}: /,
  /^(?:Uncaught )?[A-Z]\w*Error(?: \[[A-Z_]+\])?: /,
  /^Exception in thread /,
  /^panic: /,
  /^ERROR: /,
  /^\[ERROR\] /,
  /^Cannot connect to the Docker daemon/,
  // Node prints its version last after an uncaught exception (a bare `Error: …` too).
  /^Node\.js v\d{1,3}\.\d{1,3}\.\d{1,3}$/,
];

function linesOf(text: string, from: 'head' | 'tail'): string[] {
  const part = from === 'head' ? text.slice(0, READ_CHARS) : text.slice(-READ_CHARS);
  // A runner with colours forced on wraps its summary in colour codes.
  return (part.includes('\u001b') ? stripAnsi(part) : part)
    .split(/\r?\n/)
    .map((line) => line.slice(0, LINE_CHARS));
}

const anyLine = (lines: readonly string[], patterns: readonly RegExp[]) =>
  lines.some((line) => patterns.some((pattern) => pattern.test(line)));

/** Decides whether a tool event failed; pure, reads nothing else. */
export function detectToolFailure(event: ToolEvent): ToolFailure {
  const reasons: FailureReason[] = [];
  if (event.exitCode !== undefined && event.exitCode !== 0) reasons.push('exit-code');
  if (event.error?.trim()) reasons.push('error-field');
  if (event.stderr && anyLine(linesOf(event.stderr, 'head'), [STDERR_ERROR]))
    reasons.push('stderr-error');
  const output = linesOf(event.output, 'tail');
  if (anyLine(output, TEST_SUMMARIES) || output.some(isPytestTally)) reasons.push('test-summary');
  // A known exit code says more than words in the output (a `cat` of a log prints "Error:" too).
  if (event.exitCode === undefined && anyLine(output, OUTPUT_ERRORS)) reasons.push('output-error');
  const errorText = [event.error, event.stderr, event.output]
    .filter((part): part is string => Boolean(part?.trim()))
    .join('\n');
  return { failed: reasons.length > 0, reasons, errorText };
}

type Fields = Record<string, unknown>;

/** As the transcript records it: a string as is, anything else as JSON. */
function asText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function textField(fields: Fields, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((part) => typeof part === 'string'))
      return value.join(' ');
  }
  return undefined;
}

function numberField(fields: Fields | undefined, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = fields?.[name];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  return undefined;
}

/** `Exit code: 2` (Codex's shell output), `Error: Exit code 2`, `exit status 2` (go run). */
const EXIT_IN_TEXT =
  /^(?:Error: )?(?:Exit code:? |Process exited with code |exit status )(\d{1,3})\b/m;

function contentText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .map((item) => (isFields(item) ? item.text : undefined))
    .filter((text): text is string => typeof text === 'string');
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function outputFields(output: Fields): Omit<ToolEvent, 'tool' | 'command'> {
  const details = isFields(output.details) ? output.details : undefined;
  const metadata = isFields(output.metadata) ? output.metadata : undefined;
  const text =
    textField(output, 'stdout', 'output', 'result') ??
    contentText(output.content) ??
    (output.error === undefined ? asText(output) : '');
  const stderr = textField(output, 'stderr');
  const errorText = textField(output, 'error');
  const flagged = output.isError === true || output.is_error === true;
  const exitCode =
    numberField(output, 'exitCode', 'exit_code', 'exit') ??
    numberField(metadata, 'exit', 'exitCode') ??
    numberField(details, 'exitCode', 'exit_code');
  return {
    output: text,
    ...(stderr ? { stderr } : {}),
    ...(errorText ? { error: errorText } : flagged ? { error: text } : {}),
    ...(exitCode !== undefined ? { exitCode } : {}),
  };
}

/**
 * The event shape from what `lifecycle.toolUse` records (the harness's tool
 * name, input and output as each harness adapter passes them).
 */
export function toolEventFromRecorded(tool: string, input: unknown, output: unknown): ToolEvent {
  const fields = isFields(input) ? input : {};
  const command = textField(fields, 'command', 'cmd', 'script');
  const base = { tool, ...(command ? { command } : {}) };
  const shaped = isFields(output) ? outputFields(output) : { output: asText(output) };
  if (shaped.exitCode !== undefined) return { ...base, ...shaped };
  const stated = EXIT_IN_TEXT.exec(shaped.output.slice(0, 4096))?.[1];
  return { ...base, ...shaped, ...(stated ? { exitCode: Number(stated) } : {}) };
}
