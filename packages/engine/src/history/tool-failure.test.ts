import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import { detectToolFailure, type ToolEvent, toolEventFromRecorded } from './tool-failure';

const shell = (fields: Partial<ToolEvent>): ToolEvent => ({ tool: 'Bash', output: '', ...fields });

describe('detectToolFailure', () => {
  it('a zero exit code with quiet output is a success', () => {
    const result = detectToolFailure(shell({ exitCode: 0, output: 'Done in 1.2s' }));
    expect(result).toEqual({ failed: false, reasons: [], errorText: 'Done in 1.2s' });
  });

  it('a non-zero exit code is a failure', () => {
    expect(detectToolFailure(shell({ exitCode: 2, output: 'x' })).reasons).toEqual(['exit-code']);
  });

  it('an error field is a failure, and its text comes first', () => {
    const result = detectToolFailure(shell({ error: 'tool threw', output: 'partial' }));
    expect(result.reasons).toEqual(['error-field']);
    expect(result.errorText).toBe('tool threw\npartial');
  });

  it('stderr that reads as an error is a failure; progress on stderr is not', () => {
    const failed = detectToolFailure(shell({ stderr: "fatal: couldn't find remote ref main" }));
    expect(failed.reasons).toEqual(['stderr-error']);
    const progress = detectToolFailure(
      shell({ stderr: "Cloning into 'shop'...\nremote: Counting objects: 100% (12/12)" }),
    );
    expect(progress.failed).toBe(false);
  });

  it.each([
    ['vitest', ' Test Files  1 failed | 4 passed (5)\n      Tests  1 failed | 22 passed (23)'],
    ['jest', 'Test Suites: 1 failed, 2 passed, 3 total\nTests:       1 failed, 9 passed, 10 total'],
    ['pytest', '========================= 1 failed, 3 passed in 0.12s ========================='],
    ['go test', '--- FAIL: TestTotal (0.00s)\nFAIL\nFAIL\texample.com/shop\t0.01s'],
    ['cargo test', 'test result: FAILED. 2 passed; 1 failed; 0 ignored'],
    ['mocha', '  2 passing (5ms)\n  1 failing'],
    ['maven', '[INFO] BUILD FAILURE'],
    ['gradle', 'FAILURE: Build failed with an exception.'],
  ])('a %s failure summary is a failure, even with no exit code', (_runner, output) => {
    expect(detectToolFailure(shell({ output })).reasons).toEqual(['test-summary']);
  });

  it.each([
    ['a traceback', 'Traceback (most recent call last):\n  File "a.py", line 1\nKeyError: 1'],
    ['an npm error code', 'npm error code ERESOLVE'],
    ['a tsc error', 'src/a.ts(1,2): error TS2304: Cannot find name x.'],
    ['an uncaught Node error', 'TypeError: x is not a function\n    at main (a.js:1:1)'],
    [
      'an uncaught plain Node Error (Codex shell output, no exit code)',
      "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find module './lib/greet'\n\nNode.js v20.20.2",
    ],
    ['rustc', 'error[E0308]: mismatched types'],
  ])('%s in the output is a failure when no exit code is known', (_name, output) => {
    expect(detectToolFailure(shell({ output })).reasons).toEqual(['output-error']);
  });

  it('a known zero exit code wins over error words in the output', () => {
    const output = 'ERROR: this line was printed by cat from an old log';
    expect(detectToolFailure(shell({ exitCode: 0, output })).failed).toBe(false);
    expect(detectToolFailure(shell({ output })).failed).toBe(true);
  });

  it('a passing summary is not', () => {
    const output = ' Test Files  5 passed (5)\n      Tests  23 passed (23)\n0 failing tests';
    expect(detectToolFailure(shell({ output })).failed).toBe(false);
  });

  it('lists every sign it found', () => {
    const event = shell({
      exitCode: 1,
      stderr: 'Error: boom',
      output: 'test result: FAILED. 0 passed',
    });
    expect(detectToolFailure(event).reasons).toEqual(['exit-code', 'stderr-error', 'test-summary']);
  });
});

describe('toolEventFromRecorded: what each harness hands lifecycle.toolUse', () => {
  it('Claude Code Bash (PostToolUse): stdout and stderr, no exit code', () => {
    const event = toolEventFromRecorded(
      'Bash',
      { command: 'pnpm test', description: 'Run tests' },
      { stdout: ' Test Files  1 failed (1)', stderr: '', interrupted: false, isImage: false },
    );
    expect(event).toEqual({
      tool: 'Bash',
      command: 'pnpm test',
      output: ' Test Files  1 failed (1)',
    });
    expect(detectToolFailure(event).reasons).toEqual(['test-summary']);
  });

  it('Codex shell output: the `Exit code: N` header is the exit code', () => {
    const event = toolEventFromRecorded(
      'Bash',
      { command: ['bash', '-lc', 'cargo build'] },
      'Exit code: 101\nWall time: 3.2 seconds\nOutput:\nerror[E0308]: mismatched types',
    );
    expect(event.exitCode).toBe(101);
    expect(event.command).toBe('bash -lc cargo build');
    expect(detectToolFailure(event).failed).toBe(true);
  });

  it('an MCP result with isError (Codex, OpenCode): its text is the error', () => {
    const event = toolEventFromRecorded(
      'mcp__cairn__memory_add',
      { text: 'x' },
      { content: [{ type: 'text', text: 'Error: READ_ONLY' }], isError: true },
    );
    expect(event.error).toBe('Error: READ_ONLY');
    expect(detectToolFailure(event).reasons).toEqual(['error-field']);
  });

  it('OpenCode bash: only the output text is recorded, so only its content can tell', () => {
    const event = toolEventFromRecorded('bash', { command: 'jq .' }, 'zsh: command not found: jq');
    expect(event.exitCode).toBeUndefined();
    expect(detectToolFailure(event).reasons).toEqual(['output-error']);
    expect(errorSignature(detectToolFailure(event).errorText).family).toBe('shell');
  });

  it('OpenClaw after_tool_call with an error: recorded as { error }', () => {
    const event = toolEventFromRecorded('exec', { command: 'git push' }, { error: 'exit 1' });
    expect(event).toEqual({ tool: 'exec', command: 'git push', output: '', error: 'exit 1' });
    expect(detectToolFailure(event).reasons).toEqual(['error-field']);
  });

  it('OpenClaw exec details and OpenCode metadata carry an exit code when present', () => {
    const openclaw = toolEventFromRecorded(
      'exec',
      {},
      { content: [{ type: 'text', text: 'x' }], details: { exitCode: 3 } },
    );
    expect(openclaw.exitCode).toBe(3);
    const opencode = toolEventFromRecorded('bash', {}, { output: 'x', metadata: { exit: 0 } });
    expect(opencode.exitCode).toBe(0);
  });

  it('a successful MCP call (the captured Claude Code fixture) is not a failure', () => {
    const event = toolEventFromRecorded(
      'mcp__cairn__memory_add',
      { text: 'The deploy key lives in vault path ops/deploy.' },
      '{"action":"created","memoryId":"UNIT:fca0fa31-d2fb-45a2-a1ee-20369233914f","kind":"UNIT"}',
    );
    expect(detectToolFailure(event).failed).toBe(false);
  });
});

describe('detectToolFailure on hostile input', () => {
  it.each([
    ['newlines', '\n'.repeat(300_000)],
    ['a shell prefix and no end', `sh: ${'x'.repeat(300_000)}`],
    ['error words', 'xError '.repeat(100_000)],
    ['spaces after a newline', `\n${' '.repeat(300_000)}`],
  ])('%s: returns', (_name, text) => {
    const result = detectToolFailure(shell({ output: text, stderr: text }));
    expect(typeof result.failed).toBe('boolean');
  });
});
