import { describe, expect, it } from 'vitest';
import { failureSignature } from './failure-signature';
import { toolEventFromRecorded } from './tool-failure';

const lockfile = (root: string) =>
  ` ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with ${root}/packages/api/package.json`;

describe('failureSignature', () => {
  it('is undefined for a tool event that did not fail', () => {
    const event = toolEventFromRecorded('Bash', { command: 'ls' }, { stdout: 'a\nb', stderr: '' });
    expect(failureSignature(event)).toBeUndefined();
  });

  it('gives one signature for one failure met in two harnesses, two sessions, two checkouts', () => {
    // Claude Code's Bash response, then OpenClaw's exec with its exit code in the details.
    const claude = toolEventFromRecorded(
      'Bash',
      { command: 'pnpm install --frozen-lockfile' },
      { stdout: '', stderr: lockfile('/home/alice/shop'), interrupted: false },
    );
    const openclaw = toolEventFromRecorded(
      'exec',
      { command: 'cd /srv/ci/shop && pnpm install --frozen-lockfile' },
      { content: [{ type: 'text', text: lockfile('/srv/ci/shop') }], details: { exitCode: 1 } },
    );
    const first = failureSignature(claude);
    const second = failureSignature(openclaw);
    expect(first?.reasons).toEqual(['stderr-error']);
    expect(second?.reasons).toEqual(['exit-code']);
    expect(second?.signature).toBe(first?.signature);
    expect(first).toMatchObject({
      family: 'pnpm',
      normalized:
        'pnpm: ERR_PNPM_OUTDATED_LOCKFILE | Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <path> [shell: pnpm install]',
    });
  });
});
