import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, cliRunner } from './test-cli';

/**
 * Odd but real states, through the built `cairn` as a harness runs it: a
 * tool input nested 200,000 levels deep, a session end that failed, a
 * heads.db whose deferred writes cannot be read. Each gets a typed error
 * naming what failed and makes `cairn doctor` say so.
 */

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });

/** better-sqlite3 as the CLI carries it, to put a database into a state a test needs. */
type Db = { exec(sql: string): void; close(): void };
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => Db;
function editDatabase(name: string, sql: string) {
  const db = new Database(join(cairnStatePath(project.root), name));
  db.exec(sql);
  db.close();
}

function hook(event: string, session: string, fields: Record<string, unknown> | string): CliRun {
  const body =
    typeof fields === 'string'
      ? fields
      : JSON.stringify({
          session_id: session,
          transcript_path: `${project.root}/t.jsonl`,
          cwd: project.root,
          hook_event_name: event,
          ...fields,
        });
  return cli.run(['hook', 'claude-code', event], body);
}

describe('lifecycle failures reach cairn doctor', () => {
  it('a tool input nested 200,000 levels deep: INVALID_INPUT naming the limit, exit 0, doctor reports it', () => {
    expect(cli.run(['init']).code).toBe(0);
    const depth = 200_000;
    const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const payload = `{"session_id":"s-1","transcript_path":"${project.root}/t.jsonl","cwd":${JSON.stringify(project.root)},"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":${deep},"tool_response":"ok"}`;
    const run = hook('PostToolUse', 's-1', payload);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^cairn hook claude-code PostToolUse: INVALID_INPUT: .*input: nested deeper than 512 levels/,
    );
    expect(run.stderr).not.toContain('Maximum call stack');
    const doctor = cli.run(['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^ {2}! \S+ claude-code PostToolUse failed open: INVALID_INPUT: .*nested deeper than 512 levels.* — the harness sent an event Cairn refuses/m,
    );
    // Seen: doctor is ok again until the next failure.
    expect(cli.run(['doctor', '--clear']).stdout).toContain('1 lifecycle failure(s) marked seen');
    expect(cli.run(['doctor']).code).toBe(0);
  });

  it('a failed session end: doctor is not ok, says what was lost and how to run it again', () => {
    expect(cli.run(['init']).code).toBe(0);
    expect(hook('SessionStart', 's-1', { source: 'startup' }).code).toBe(0);
    expect(hook('UserPromptSubmit', 's-1', { prompt: 'Fix the login form' }).code).toBe(0);
    expect(cli.run(['doctor']).code).toBe(0);
    // An older Cairn meets a lineage written by a newer one: every write refuses.
    editDatabase(
      'lineage.db',
      "INSERT INTO schema_migrations VALUES (999, 'future', '2030-01-01')",
    );
    const end = hook('SessionEnd', 's-1', { reason: 'exit' });
    expect(end.code).toBe(0);
    const doctor = cli.run(['doctor', '--json']);
    expect(doctor.code).toBe(1);
    const report = JSON.parse(doctor.stdout);
    expect(report.ok).toBe(false);
    // The database itself is sound: only the failure tells the user.
    expect(report.findings).toEqual([]);
    expect(report.lifecycleFailures).toEqual([
      expect.objectContaining({
        event: 'session-end',
        sessionKey: 's-1',
        code: 'UNSUPPORTED',
        message: expect.stringContaining('lineage.db has schema version 999'),
        fix: expect.stringContaining(
          `'{"agentId":"claude-code","sessionKey":"s-1"}' | cairn lifecycle session-end`,
        ),
      }),
    ]);
    expect(cli.run(['doctor']).stdout).toMatch(/^ {2}! .* session-end failed open: UNSUPPORTED: /m);
  });

  it('deferred head writes that cannot be read: doctor is not ok and says so', () => {
    expect(cli.run(['init']).code).toBe(0);
    expect(hook('SessionStart', 's-1', { source: 'startup' }).code).toBe(0);
    expect(cli.run(['doctor']).code).toBe(0);
    editDatabase('heads.db', 'DROP TABLE pending_writes');
    const doctor = cli.run(['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/^ {2}! deferred head writes cannot be read \(.*pending_writes/m);
    expect(JSON.parse(cli.run(['doctor', '--json']).stdout).ok).toBe(false);
  });
});
