import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root);
const ids = { agentId: 'codex', sessionKey: 'run-42' };

function event(name: string, payload: object) {
  const run = cli.run(['lifecycle', name], JSON.stringify({ ...ids, ...payload }));
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).failed).toBeUndefined();
}

function recordRun() {
  expect(cli.run(['init']).code).toBe(0);
  event('session-start', { cwd: project.root, harness: 'codex' });
  event('user-prompt-submit', { prompt: 'Make the build green' });
  event('tool-use', {
    toolName: 'shell',
    input: { command: 'pnpm build' },
    output:
      'Exit code: 1\nsrc/a.ts(1,7): error TS2322: Type "string" is not assignable to type "number".',
  });
  event('tool-use', {
    toolName: 'shell',
    input: { command: 'pnpm build' },
    output: 'Exit code: 0\ndone',
  });
  event('session-end', { deferSummary: true });
}

describe('cairn history runs / show', () => {
  it('lists the run and renders its digest as markdown and JSON', () => {
    recordRun();
    const runs = cli.run(['history', 'runs', '--json']);
    expect(runs.code, runs.stderr).toBe(0);
    const listed = JSON.parse(runs.stdout).runs;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      runId: 'run-42',
      agentId: 'codex',
      outcome: 'succeeded',
      intent: 'Make the build green',
      gotchas: 1,
    });

    const show = cli.run(['history', 'show', 'run-42']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('# Run run-42 (succeeded)');
    expect(show.stdout).toContain('## Gotchas');
    expect(show.stdout).toMatch(/typescript: .*TS2322.*resolved by \d+:3/);

    const json = JSON.parse(cli.run(['history', 'show', listed[0].nodeId, '--json']).stdout);
    expect(json.digest.runId).toBe('run-42');
    expect(json.digest.gotchas[0].status).toBe('resolved');
  });

  it('reads the commits of the session with git from the CLI bundle, and no hostile config runs', () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
        cwd: project.root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: join(project.root, 'home'),
          GIT_CONFIG_NOSYSTEM: '1',
          // Only the commit made before the session is dated: an hour ago.
          ...(args.includes('before')
            ? { GIT_COMMITTER_DATE: new Date(Date.now() - 3_600_000).toISOString() }
            : {}),
        },
      });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'before');
    expect(cli.run(['init']).code).toBe(0);
    event('session-start', { cwd: project.root, harness: 'codex' });
    event('user-prompt-submit', { prompt: 'Add the notes file' });
    writeFileSync(join(project.root, 'notes.txt'), 'one\ntwo\n');
    git('add', 'notes.txt');
    git('commit', '-q', '-m', 'docs: notes');
    const marker = join(project.root, 'marker');
    git('config', 'core.fsmonitor', `touch ${marker}; false`);
    git('config', 'diff.external', `touch ${marker}; false`);
    event('session-end', { deferSummary: true });
    const { digest } = JSON.parse(cli.run(['history', 'show', 'run-42', '--json']).stdout);
    expect(digest.changes.gitNote).toBeUndefined();
    expect(digest.changes.commits.map((c: { subject: string }) => c.subject)).toEqual([
      'docs: notes',
    ]);
    expect(digest.changes.diffstat).toMatchObject({
      files: 1,
      insertions: 2,
      paths: ['notes.txt'],
    });
    expect(() => execFileSync('test', ['-e', marker])).toThrow();
  });

  it('says NOT_FOUND for an unknown run and validates --limit', () => {
    recordRun();
    const missing = cli.run(['history', 'show', 'nope', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('NOT_FOUND');
    const bad = cli.run(['history', 'runs', '--limit', 'x']);
    expect(bad.code).toBe(2);
    expect(cli.run(['history', 'runs', '--agent', 'other']).stdout).toContain(
      '(no run digests yet)',
    );
  });

  it('has nothing to list in a project without a lineage, and creates none', () => {
    expect(cli.run(['init']).code).toBe(0);
    const runs = cli.run(['history', 'runs', '--json']);
    expect(JSON.parse(runs.stdout)).toEqual({ ok: true, runs: [] });
  });
});
