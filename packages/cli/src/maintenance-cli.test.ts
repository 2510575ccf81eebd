import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
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
const memoryDir = () => join(project.root, '.cairn', 'memory');

function ok(args: string[], input?: string) {
  const run = cli.run(args, input);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

function session(sessionKey: string, units: string[]) {
  const ids = { agentId: 'claude-code', sessionKey };
  const event = (name: string, payload: object) =>
    ok(['lifecycle', name], JSON.stringify({ ...ids, ...payload }));
  event('session-start', { cwd: project.root, harness: 'claude-code' });
  event('user-prompt-submit', { prompt: 'Get the tests passing again' });
  for (const text of units) ok(['add', text, '--category', 'decision']);
  event('tool-use', {
    toolName: 'Bash',
    input: { command: 'pnpm test' },
    output:
      "Exit code: 1\nError: Cannot find module 'left-pad'\nRequire stack:\n- /repo/src/index.js",
  });
  event('session-end', { deferSummary: true });
}

/**
 * Every byte of every memory file outside Cairn's managed regions and units
 * (what a person wrote); a region Cairn appended comes with one separating
 * line end, which goes with it. Files Cairn created are left out.
 */
function userBytes(only?: Record<string, string>): Record<string, string> {
  const strip = (text: string) =>
    text
      .replace(
        /\n?<!-- cairn:(dreams|insights|audit|head):start -->[\s\S]*?<!-- cairn:\1:end -->\n?/g,
        '',
      )
      .replace(/<!-- cairn:memory:item:start[\s\S]*?<!-- cairn:memory:item:end -->\n?/g, '');
  const files: Record<string, string> = {};
  for (const name of readdirSync(memoryDir())) {
    if (!name.endsWith('.md') || (only && !(name in only))) continue;
    files[name] = strip(readFileSync(join(memoryDir(), name), 'utf8'));
  }
  return files;
}

describe('maintenance end to end (cairn lifecycle, insights, review)', () => {
  it('proposes from sessions, approves, rejects and undoes, and audits all of it', () => {
    ok(['init']);
    writeFileSync(join(memoryDir(), 'DREAMS.md'), '# Dreams\n\nMy notes on what to tidy up.\r\n');
    writeFileSync(
      join(memoryDir(), 'memory-insights.md'),
      '# Our insights\n\nHand-written line.\n',
    );
    session('s-1', [
      'Install dependencies with pnpm in this repository; npm is not used here.',
      'The test database runs on port 5432 locally.',
    ]);
    session('s-2', [
      'In this repository dependencies are installed with pnpm, never with npm.',
      'Locally the test database runs on port 5433.',
    ]);
    const before = userBytes();

    const run = JSON.parse(ok(['insights', 'run', '--json']).stdout);
    expect(run.action).toBe('ran');
    const kinds = run.proposals.map((p: { kind: string }) => p.kind).sort();
    expect(kinds).toEqual(['contradiction', 'merge']);
    const merge = run.proposals.find((p: { kind: string }) => p.kind === 'merge');
    const contradiction = run.proposals.find((p: { kind: string }) => p.kind === 'contradiction');

    const dreams = readFileSync(join(memoryDir(), 'DREAMS.md'), 'utf8');
    expect(dreams).toContain(merge.id);
    expect(dreams).toContain(contradiction.id);
    const inbox = JSON.parse(ok(['review', '--json']).stdout);
    expect(inbox.proposals.map((p: { id: string }) => p.id).sort()).toEqual(
      [merge.id, contradiction.id].sort(),
    );
    // The recurring failure of both sessions was promoted to a draft at session end.
    expect(inbox.drafts.some((d: { text: string }) => d.text.includes('left-pad'))).toBe(true);
    expect(ok(['review', 'show', merge.id]).stdout).toMatch(/^- /m);
    expect(userBytes(before)).toEqual(before);

    const deprecated = merge.patch.ops[0].memoryId;
    expect(JSON.parse(ok(['review', 'approve', merge.id, '--json']).stdout).outcome).toBe(
      'applied',
    );
    expect(JSON.parse(ok(['get', deprecated, '--json']).stdout).memory).toMatchObject({
      review: 'deprecated',
    });
    ok(['review', 'reject', contradiction.id, '--note', 'both ports are in use']);
    expect(JSON.parse(ok(['review', 'undo', merge.id, '--json']).stdout).outcome).toBe('undone');
    expect(JSON.parse(ok(['get', deprecated, '--json']).stdout).memory).toMatchObject({
      review: 'approved',
    });

    // A second run proposes neither again: the rejected one is remembered, the undone one too.
    const again = JSON.parse(ok(['insights', 'run', '--json']).stdout);
    expect(again.proposals).toEqual([]);

    const audit = readFileSync(join(memoryDir(), 'memory-audit.md'), 'utf8');
    for (const line of [
      `applied ${merge.id}`,
      `rejected ${contradiction.id}`,
      `undone ${merge.id}`,
      'note: both ports are in use',
      'examined: 5 units', // four added and the recurring failure's draft
    ]) {
      expect(audit).toContain(line);
    }
    expect(readFileSync(join(memoryDir(), 'memory-insights.md'), 'utf8')).toContain('left-pad');
    expect(userBytes(before)).toEqual(before);

    const status = JSON.parse(ok(['insights', 'status', '--json']).stdout);
    expect(status).toMatchObject({ enabled: false, schedule: '0 2 * * *', open: 0 });
    expect(status.lastRun.trigger).toBe('manual');
  });

  it('a conflicting approval writes nothing and exits 1; bad ids exit 2', () => {
    ok(['init']);
    const a = JSON.parse(
      ok(['add', 'Run the linter with biome check before every commit to main.', '--json']).stdout,
    ).memoryId;
    ok(['add', 'Before every commit to main, run biome check as the linter.']);
    const run = JSON.parse(ok(['insights', 'run', '--json']).stdout);
    const merge = run.proposals.find((p: { kind: string }) => p.kind === 'merge');
    const target = merge.patch.ops[0].memoryId;
    ok(['replace', target, 'Run biome check and the type checker before every push.']);
    const bytes = userBytes();
    const approve = cli.run(['review', 'approve', merge.id, '--json']);
    expect(approve.code).toBe(1);
    expect(JSON.parse(approve.stdout)).toMatchObject({ outcome: 'conflict', ok: false });
    expect(userBytes(bytes)).toEqual(bytes);
    expect(cli.run(['review', 'approve', 'P-nothex']).code).toBe(2);
    expect(cli.run(['review', 'undo', a]).code).toBe(2);
  });
});

describe('the session-end hook and a due run', () => {
  it('starts `cairn insights run --if-due` detached when enabled and due, and the run lands', async () => {
    ok(['init']);
    const state = join(project.root, '.cairn', 'state');
    mkdirSync(state, { recursive: true });
    writeFileSync(
      join(state, 'maintenance-schedule.json'),
      JSON.stringify({
        lastRunAt: '2026-01-01T02:00:00.000Z',
        nextDueAt: '2026-01-02T02:00:00.000Z',
        schedule: '0 2 * * *',
        timezone: 'UTC',
        minIntervalMs: 86_400_000,
      }),
    );
    const env = { CAIRN_INSIGHT_EXTRACTION_ENABLED: 'true', CAIRN_TIMEZONE: 'UTC' };
    const ids = { agentId: 'claude-code', sessionKey: 'due-1' };
    const audit = join(memoryDir(), 'memory-audit.md');
    // Done when the run re-planned (its last write) and let go of its lock: no file is written after.
    const lock = join(state, 'locks', 'maintenance.lock');
    mkdirSync(join(state, 'locks'), { recursive: true });
    const done = () =>
      !existsSync(lock) &&
      JSON.parse(readFileSync(join(state, 'maintenance-schedule.json'), 'utf8')).lastRunAt !==
        '2026-01-01T02:00:00.000Z';
    const landed = new Promise<void>((resolve) => {
      const watchers = [state, join(state, 'locks')].map((folder) =>
        watch(folder, () => {
          if (!done()) return;
          for (const watcher of watchers) watcher.close();
          resolve();
        }),
      );
    });
    for (const [name, payload] of [
      ['session-start', { cwd: project.root }],
      ['session-end', {}],
    ] as const) {
      const run = cli.run(['lifecycle', name], JSON.stringify({ ...ids, ...payload }), env);
      expect(run.code, run.stderr).toBe(0);
    }
    await landed;
    expect(readFileSync(audit, 'utf8')).toMatch(/run R-[0-9a-f]{8} \(schedule\)/);
  });
});
