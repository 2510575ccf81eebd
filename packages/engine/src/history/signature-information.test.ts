import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import { isLowInformation, signatureInformation } from './signature-information';

describe('the low-information rule', () => {
  it.each([
    ['generic: <n> test failed [shell: ava]', '0 distinctive token(s) once normalized'],
    ['generic: error: |- [shell: node]', '0 distinctive token(s) once normalized'],
    ['package-script: ELIFECYCLE | Command failed with exit code <n>. [shell: pnpm test]', '1'],
    ['generic: nothing works here [shell: deploy]', 'an unknown tool and no error class'],
  ])('%s is low-information', (normalized, reason) => {
    const info = signatureInformation({ normalized });
    expect(info.lowInformation).toBe(true);
    expect(info.reason).toContain(reason);
  });

  it.each([
    'vitest: math.test.js > math > adds (AssertionError) [shell: vitest]',
    'go: undefined: Config [shell: go build]',
    "java: ';' expected [shell: javac]",
    'shell: command not found: gh [shell: gh pr]',
    'generic: TypeError: client.connect is not a function [shell: deploy]',
    'pnpm: ERR_PNPM_OUTDATED_LOCKFILE | Cannot install with "frozen-lockfile" [shell: pnpm install]',
  ])('%s is not', (normalized) => {
    expect(isLowInformation({ normalized })).toBe(false);
  });

  it('reads the family from the normalized key unless it is given', () => {
    expect(isLowInformation({ family: 'generic', normalized: 'generic: deploy broke badly' })).toBe(
      true,
    );
    expect(isLowInformation({ family: 'deploy', normalized: 'deploy broke badly' })).toBe(false);
  });

  it('sees what the old keys of ava and node:test TAP said as low-information', () => {
    // Before the test runner rules, every ava failure and every node:test TAP failure read so.
    const ava = errorSignature('\n  2 tests failed\n', { tool: 'Bash', command: 'npx ava' });
    expect(ava.normalized).toBe('generic: <n> tests failed [shell: ava]');
    expect(isLowInformation(ava)).toBe(true);
    expect(isLowInformation({ normalized: 'generic: error: |- [shell: node]' })).toBe(true);
  });
});
