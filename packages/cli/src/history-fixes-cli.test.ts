import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

/*
 * Known fixes through `cairn lifecycle tool-use`, as a Claude Code hook
 * hands them over (a failed Bash call arrives as `{ error }`): a fix found
 * for one failing test is offered for that test again, from another
 * checkout and line, and never for another test; a failure whose signature
 * says too little is recorded but never answered with a fix, nor promoted.
 */

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root);
const KNOWN_FIX = '## Cairn context pack: Known fix for this error';

function event(sessionKey: string, name: string, payload: object): { inject: string } {
  const run = cli.run(
    ['lifecycle', name],
    JSON.stringify({ agentId: 'claude-code', sessionKey, ...payload }),
  );
  expect(run.code, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout);
  expect(result.failed).toBeUndefined();
  return result;
}

const bashFails = (sessionKey: string, command: string, text: string) =>
  event(sessionKey, 'tool-use', {
    toolName: 'Bash',
    input: { command },
    output: { error: `Exit code 1\n${text}` },
  }).inject;
const bashPasses = (sessionKey: string, command: string) =>
  event(sessionKey, 'tool-use', {
    toolName: 'Bash',
    input: { command },
    output: { stdout: 'ok', stderr: '', interrupted: false },
  }).inject;
const edit = (sessionKey: string, path: string) =>
  event(sessionKey, 'tool-use', {
    toolName: 'Edit',
    input: { file_path: path, old_string: 'a', new_string: 'b' },
    output: { filePath: path },
  });

/** ava 7 when one test fails (as captured in bench/fixtures/failures/ava/). */
const ava = (test: string, dir: string, line: number) =>
  [
    '',
    `  \u2718 [fail]: ${test}`,
    '  \u2500',
    '',
    `  ${test}`,
    '',
    `  ${dir}math.test.js:${line}`,
    '',
    `   ${line}:     t.is(1 + 1, 3);`,
    '',
    '  Difference (- actual, + expected):',
    '',
    '  - 2',
    '  + 3',
    '',
    `  \u203a ${dir}math.test.js:${line}:7`,
    '',
    '  \u2500',
    '',
    '  1 test failed',
  ].join('\n');

/** node --test with the TAP reporter when one test of a suite fails. */
const nodeTap = (test: string, dir: string, line: number) =>
  [
    'TAP version 13',
    '# Subtest: math',
    `    # Subtest: ${test}`,
    `    not ok 1 - ${test}`,
    '      ---',
    '      duration_ms: 0.99',
    `      location: '${dir}/math.test.js:${line}:3'`,
    "      failureType: 'testCodeFailure'",
    '      error: |-',
    '        Expected values to be strictly equal:',
    "      code: 'ERR_ASSERTION'",
    "      name: 'AssertionError'",
    '      ...',
    'not ok 1 - math',
    '  ---',
    "  failureType: 'subtestsFailed'",
    "  error: '1 subtest failed'",
    '  ...',
    '# fail 1',
  ].join('\n');

/** Session `s1` fails, edits the test and passes: the fix is learned. */
function learn(command: string, failure: string) {
  expect(bashFails('s1', command, failure)).toBe('');
  edit('s1', `${project.root}/math.test.js`);
  bashPasses('s1', command);
  event('s1', 'session-end', { deferSummary: true });
}

describe('known fixes for failing tests (cairn lifecycle tool-use)', () => {
  beforeEach(() => {
    expect(cli.run(['init']).code).toBe(0);
  });

  it('ava: the fix of one failing test is offered for it again, never for another test', () => {
    learn('npx ava', ava('adds', '', 2));
    expect(bashFails('s2', 'npx ava', ava('subtracts', '', 6))).not.toContain(KNOWN_FIX);
    expect(bashFails('s3', 'npx ava', ava('adds', 'test/', 9))).toContain(KNOWN_FIX);
  });

  it('node:test (TAP): the same, from another checkout and line', () => {
    learn('node --test', nodeTap('adds', '/home/a/shop', 4));
    expect(bashFails('s2', 'node --test', nodeTap('subtracts', '/home/a/shop', 8))).not.toContain(
      KNOWN_FIX,
    );
    expect(bashFails('s3', 'node --test', nodeTap('adds', '/srv/ci/shop/test', 11))).toContain(
      KNOWN_FIX,
    );
  });

  it('a low-information failure is recorded, never answered with a fix, never promoted', () => {
    // An unknown tool that prints a bare tally: `generic: <n> test failed`.
    const bare = (n: number) => `running ${n} checks\n  1 test failed`;
    learn('./check.sh', bare(3));
    expect(bashFails('s2', './check.sh', bare(4))).not.toContain(KNOWN_FIX);
    event('s2', 'session-end', { deferSummary: true });
    const patterns = JSON.parse(cli.run(['history', 'patterns', '--json']).stdout).patterns;
    expect(patterns).toHaveLength(1);
    expect(patterns[0].normalized).toMatch(/^generic: /);
    // Two runs met it: without the rule it would become a "Recurring error" draft.
    const review = cli.run(['review', '--json']);
    expect(review.code, review.stderr).toBe(0);
    expect(JSON.parse(review.stdout).drafts).toEqual([]);
  });
});
