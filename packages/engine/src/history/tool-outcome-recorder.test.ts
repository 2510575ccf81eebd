import { existsSync } from 'node:fs';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../store';
import { getFixPattern, listFixPatterns, recentPatterns } from './fix-patterns-api';
import { historyDatabasePath, openHistoryDatabase } from './history-database';
import { hasOpenFailureFlag } from './open-failure-flag';
import {
  endSessionFailures,
  type HistoryAccess,
  recordToolOutcome,
  type ToolOutcomeInput,
} from './tool-outcome-recorder';

let project: TempProject;
let db: Database | undefined;
let access: HistoryAccess;
let seq = 0;

beforeEach(async () => {
  project = await makeTempProject();
  seq = 0;
  access = {
    rootDir: project.root,
    db: () => (db ??= openHistoryDatabase(project.root)),
    redact: (text) => text.replace(/TOKEN=\S+/g, 'TOKEN=[REDACTED]'),
  };
});
afterEach(async () => {
  db?.close();
  db = undefined;
  await project.cleanup();
});

/** A Node error as `node main.js` prints it, from one checkout and line. */
const missingModule = (dir: string, line: number) =>
  [
    `node:internal/modules/cjs/loader:${line}`,
    '  throw err;',
    '  ^',
    '',
    `Error: Cannot find module './lib/greet'`,
    `Require stack:`,
    `- ${dir}/main.js`,
    `    at Module._resolveFilename (node:internal/modules/cjs/loader:${line}:15) {`,
    `  code: 'MODULE_NOT_FOUND',`,
    '}',
    '',
    'Node.js v20.20.0',
  ].join('\n');

function event(
  session: string,
  toolName: string,
  input: unknown,
  output: unknown,
): ToolOutcomeInput {
  seq += 1;
  return {
    agentId: 'claude-code',
    sessionKey: session,
    threadKey: 'shop.main',
    repo: 'shop',
    namespace: 'default',
    eventId: `T:1:${seq}`,
    toolName,
    input,
    output,
    at: new Date(Date.UTC(2026, 10, 1, 0, 0, seq)).toISOString(),
  };
}

const fails = (session: string, dir: string, line: number) =>
  recordToolOutcome(
    access,
    event(
      session,
      'Bash',
      { command: 'node main.js' },
      { stdout: '', stderr: missingModule(dir, line) },
    ),
  );
const edits = (session: string, path: string) =>
  recordToolOutcome(
    access,
    event(session, 'Write', { file_path: path, content: 'x' }, { ok: true }),
  );
const passes = (session: string) =>
  recordToolOutcome(
    access,
    event(session, 'Bash', { command: 'node main.js' }, { stdout: 'hello', stderr: '' }),
  );

describe('recordToolOutcome', () => {
  it('opens no database for a successful event in a session with no open failure', () => {
    const outcome = passes('s1');
    expect(outcome).toEqual({ failed: false, resolved: [] });
    expect(db).toBeUndefined();
    expect(existsSync(historyDatabasePath(project.root))).toBe(false);
  });

  it('records a failure, the steps after it and, when the command passes, a candidate linked to both events', () => {
    const failed = fails('s1', '/home/alice/shop', 1228);
    expect(failed.failed).toBe(true);
    expect(failed.failure).toMatchObject({
      eventId: 'T:1:1',
      sessionKey: 's1',
      threadKey: 'shop.main',
      repo: 'shop',
      namespace: 'default',
      family: 'node',
      commandFamily: 'node',
      status: 'open',
    });
    expect(failed.pattern).toBeUndefined();
    expect(hasOpenFailureFlag(project.root, 'claude-code', 's1')).toBe(true);
    recordToolOutcome(access, event('s1', 'Read', { file_path: '/home/alice/shop/main.js' }, 'x'));
    edits('s1', '/home/alice/shop/lib/greet.js');
    const passed = passes('s1');
    expect(passed.resolved).toHaveLength(1);
    expect(hasOpenFailureFlag(project.root, 'claude-code', 's1')).toBe(false);
    const [pattern] = listFixPatterns(project.root);
    expect(pattern).toMatchObject({
      state: 'candidate',
      stepsKey: 'edit',
      succeeded: 1,
      applied: 0,
      failed: 0,
      failureEventId: 'T:1:1',
      successEventId: 'T:1:4',
      steps: [
        { kind: 'edit', key: 'edit', detail: '/home/alice/shop/lib/greet.js', eventId: 'T:1:3' },
      ],
    });
    expect(passed.resolved[0]?.patternId).toBe(pattern?.id);
    expect(getFixPattern(project.root, pattern!.id).runs).toEqual([
      expect.objectContaining({ sessionKey: 's1', role: 'origin', failureEventId: 'T:1:1' }),
    ]);
  });

  it('shows the pattern when another run meets the same error elsewhere, and verifies it when followed', () => {
    fails('s1', '/home/alice/shop', 1228);
    edits('s1', '/home/alice/shop/lib/greet.js');
    passes('s1');
    // Another checkout, another line number: the same signature.
    const again = fails('s2', '/srv/ci/shop', 1140);
    // Shown, not yet applied: the session has not run the pattern's steps.
    expect(again.pattern).toMatchObject({ state: 'candidate', applied: 0 });
    edits('s2', '/srv/ci/shop/lib/greet.js');
    passes('s2');
    const [pattern] = listFixPatterns(project.root);
    expect(pattern).toMatchObject({ state: 'verified', succeeded: 2, applied: 1 });
    expect(new Set(getFixPattern(project.root, pattern!.id).runs.map((r) => r.sessionKey))).toEqual(
      new Set(['s1', 's2']),
    );
    expect(recentPatterns(project.root).map((p) => p.id)).toEqual([pattern!.id]);
  });

  it('counts a run that followed the pattern and failed again, and deprecates a pattern that keeps failing', () => {
    fails('s1', '/a', 1);
    edits('s1', '/a/lib/greet.js');
    passes('s1');
    for (const session of ['s2', 's3']) {
      fails(session, '/b', 2);
      edits(session, '/b/lib/greet.js');
      fails(session, '/b', 3);
      endSessionFailures(
        access,
        { agentId: 'claude-code', sessionKey: session },
        '2026-11-02T00:00:00Z',
      );
    }
    const [pattern] = listFixPatterns(project.root);
    expect(pattern).toMatchObject({ state: 'deprecated', applied: 2, failed: 2, succeeded: 1 });
    expect(pattern?.reason).toContain('stopped working');
    // A deprecated pattern is never shown again.
    expect(fails('s4', '/c', 4).pattern).toBeUndefined();
  });

  it('learns a second pattern when a run resolves the error another way, and records config and command steps', () => {
    fails('s1', '/a', 1);
    edits('s1', '/a/lib/greet.js');
    passes('s1');
    fails('s2', '/b', 2);
    recordToolOutcome(
      access,
      event(
        's2',
        'Bash',
        { command: 'TOKEN=abc npm install greet' },
        { stdout: 'added 1 package' },
      ),
    );
    edits('s2', '/b/package.json');
    passes('s2');
    const patterns = listFixPatterns(project.root, { state: 'candidate' });
    expect(patterns.map((p) => p.stepsKey).sort()).toEqual(['edit', 'run:npm install > config']);
    const npm = patterns.find((p) => p.stepsKey !== 'edit');
    expect(npm?.steps[0]?.detail).toBe('TOKEN=[REDACTED] npm install greet');
  });

  it('counts no application for a session that was shown the pattern and never ran its steps', () => {
    fails('s1', '/a', 1);
    edits('s1', '/a/lib/greet.js');
    passes('s1');
    // s2 is shown the pattern, edits another file and the command passes: another fix.
    expect(fails('s2', '/b', 2).pattern).toBeDefined();
    edits('s2', '/b/lib/other.js');
    passes('s2');
    // s3 is shown it and ends the session without doing anything.
    expect(fails('s3', '/c', 3).pattern).toBeDefined();
    endSessionFailures(
      access,
      { agentId: 'claude-code', sessionKey: 's3' },
      '2026-11-02T00:00:00Z',
    );
    const patterns = listFixPatterns(project.root);
    const greet = patterns.find((p) => p.steps[0]?.detail === '/a/lib/greet.js');
    expect(greet).toMatchObject({ state: 'candidate', applied: 0, succeeded: 1, failed: 0 });
    // The other file's fix is a pattern of its own, with the same step keys.
    const other = patterns.find((p) => p.steps[0]?.detail === '/b/lib/other.js');
    expect(other).toMatchObject({ stepsKey: 'edit', state: 'candidate', applied: 0 });
    expect(other?.id).not.toBe(greet?.id);
    const outcomes = access
      .db()
      .prepare('SELECT session_key AS s, outcome FROM applications ORDER BY id')
      .all();
    expect(outcomes).toEqual([
      { s: 's2', outcome: 'not-followed' },
      { s: 's3', outcome: 'not-followed' },
    ]);
  });

  it('abandons open failures at session end and clears the flag', () => {
    fails('s1', '/a', 1);
    expect(
      endSessionFailures(
        access,
        { agentId: 'claude-code', sessionKey: 's1' },
        '2026-11-02T00:00:00Z',
      ),
    ).toBe(1);
    expect(hasOpenFailureFlag(project.root, 'claude-code', 's1')).toBe(false);
    expect(passes('s1').resolved).toEqual([]);
    expect(listFixPatterns(project.root)).toEqual([]);
  });
});
