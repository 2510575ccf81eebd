import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNATURE_STDIN_MAX_BYTES } from './commands/history';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root);

const traceback = (root: string, line: number) => `Traceback (most recent call last):
  File "${root}/manage.py", line ${line}, in <module>
    from django.core.management import execute_from_command_line
ModuleNotFoundError: No module named 'django'
`;

describe('cairn history signature', () => {
  it('prints { signature, family, normalized } as JSON, the same for two runs of one error', () => {
    const first = cli.run(['history', 'signature'], traceback('/home/a/shop', 12));
    const second = cli.run(['history', 'signature'], traceback('/Users/b/src/shop', 140));
    expect(first.code, first.stderr).toBe(0);
    const json = JSON.parse(first.stdout);
    expect(Object.keys(json).sort()).toEqual(['family', 'normalized', 'signature']);
    expect(json).toMatchObject({
      family: 'python',
      normalized: "python: ModuleNotFoundError | No module named 'django'",
    });
    expect(json.signature).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.parse(second.stdout)).toEqual(json);
  });

  it('takes the tool and the command family into the signature', () => {
    const text = 'Error: boom\n    at main (/a/b.js:1:2)\n';
    const install = cli.run(
      ['history', 'signature', '--tool', 'Bash', '--command', 'pnpm install'],
      text,
    );
    const test = cli.run(['history', 'signature', '--json', '--command', 'pnpm test'], text);
    expect(JSON.parse(install.stdout).normalized).toBe('node: Error | boom [shell: pnpm install]');
    expect(JSON.parse(test.stdout).normalized).toBe('node: Error | boom [pnpm test]');
    expect(JSON.parse(install.stdout).signature).not.toBe(JSON.parse(test.stdout).signature);
  });

  it('refuses empty stdin with INVALID_INPUT (exit 2)', () => {
    const run = cli.run(['history', 'signature', '--json'], '  \n');
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error.code).toBe('INVALID_INPUT');
  });

  it('refuses more than 1 MiB of stdin with INVALID_INPUT (exit 2)', () => {
    const run = cli.run(['history', 'signature'], 'x'.repeat(SIGNATURE_STDIN_MAX_BYTES + 1));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('INVALID_INPUT');
  });

  it('refuses an unknown history command', () => {
    const run = cli.run(['history', 'digest'], 'x');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown history subcommand "digest"');
  });
});

describe('cairn history patterns, pattern, approve, deprecate', () => {
  /** Claude Code's hook payloads, through the hook bundle as Claude Code runs it. */
  const hook = (event: string, session: string, fields: Record<string, unknown>) =>
    cli.run(
      ['hook', 'claude-code', event],
      JSON.stringify({
        session_id: session,
        transcript_path: `${project.root}/t.jsonl`,
        cwd: project.root,
        hook_event_name: event,
        ...fields,
      }),
    );
  const failing = (session: string, dir: string) =>
    hook('PostToolUseFailure', session, {
      tool_name: 'Bash',
      tool_input: { command: 'python manage.py migrate' },
      tool_use_id: 't',
      error: `Exit code 1\n${traceback(dir, 12)}`,
    });

  async function learn(): Promise<string> {
    expect(cli.run(['init']).code).toBe(0);
    expect(failing('s-1', '/home/a/shop').code).toBe(0);
    hook('PostToolUse', 's-1', {
      tool_name: 'Bash',
      tool_input: { command: 'pip install django' },
      tool_response: { stdout: 'Successfully installed django-5.1', stderr: '' },
    });
    hook('PostToolUse', 's-1', {
      tool_name: 'Bash',
      tool_input: { command: 'python manage.py migrate' },
      tool_response: { stdout: 'No migrations to apply.', stderr: '' },
    });
    const list = JSON.parse(cli.run(['history', 'patterns', '--json']).stdout);
    expect(list.patterns).toHaveLength(1);
    return list.patterns[0].id;
  }

  it('learns a pattern from the hooks, shows it after the same failure, and lists and shows it', async () => {
    const id = await learn();
    const again = failing('s-2', '/srv/other');
    const reply = JSON.parse(again.stdout);
    expect(reply.hookSpecificOutput.hookEventName).toBe('PostToolUseFailure');
    expect(reply.hookSpecificOutput.additionalContext).toContain(`pattern ${id} signature`);
    expect(reply.hookSpecificOutput.additionalContext).toContain('ran `pip install django`');
    const listed = cli.run(['history', 'patterns', '--state', 'candidate']);
    // Shown to s-2, not applied: s-2 did not run the pattern's steps.
    expect(listed.stdout).toContain(`${id}  candidate  applied 0, succeeded 1, failed 0`);
    const shown = cli.run(['history', 'pattern', id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Evidence runs:');
    expect(shown.stdout).toContain('origin    claude-code/s-1');
  });

  it('approves and deprecates by id; an unknown id, a bad id or a bad state changes nothing', async () => {
    const id = await learn();
    const before = cli.run(['history', 'patterns', '--json']).stdout;
    const missing = cli.run(['history', 'approve', 'FIX-000000000000', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('NOT_FOUND');
    expect(cli.run(['history', 'deprecate', 'nope']).stderr).toContain('INVALID_INPUT');
    expect(cli.run(['history', 'patterns', '--state', 'gold']).stderr).toContain('INVALID_INPUT');
    expect(cli.run(['history', 'approve']).stderr).toContain('needs a fix pattern id');
    expect(cli.run(['history', 'patterns', '--json']).stdout).toBe(before);

    const approved = JSON.parse(cli.run(['history', 'approve', id, '--json']).stdout);
    expect(approved.pattern).toMatchObject({
      id,
      state: 'verified',
      reason: 'approved by a person',
    });
    const deprecated = cli.run(['history', 'deprecate', id, '--reason', 'Django is vendored now']);
    expect(deprecated.stdout).toContain('deprecated: Django is vendored now');
    // A deprecated pattern is not shown after the failure any more.
    expect(failing('s-3', '/x').stdout).toBe('');
  });

  it('approving promotes the pattern to an approved decision unit, once, with the same id', async () => {
    const id = await learn();
    const first = JSON.parse(cli.run(['history', 'approve', id, '--json']).stdout);
    expect(first.promotion).toMatchObject({ action: 'promoted', review: 'approved' });
    const memoryId = first.promotion.memoryId as string;
    const again = cli.run(['history', 'approve', id]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`Its unit ${memoryId} is approved: already approved.`);
    const units = JSON.parse(cli.run(['list', '--json']).stdout);
    const promoted = units.units.filter((u: { source?: string }) =>
      u.source?.includes(`pattern=${id}`),
    );
    expect(promoted.map((u: { memoryId: string }) => u.memoryId)).toEqual([memoryId]);
  });

  it("`cairn pack` and the hooks' receipt show a pattern's evidence runs", async () => {
    const id = await learn();
    // Queries about the failure the pattern fixes (relevance reads its steps and its error).
    const pack = cli.run(['pack', 'python ModuleNotFoundError django', '--agent', 'claude-code']);
    expect(pack.code, pack.stderr).toBe(0);
    expect(pack.stdout).toContain(`pattern ${id}`);
    expect(pack.stdout).toMatch(/evidence: run s-1 \(claude-code, origin: T:\d+:\d+ → T:\d+:\d+\)/);
    // s-1 ends (its summary and digest give the thread something to show), s-2 asks.
    expect(hook('SessionEnd', 's-1', { reason: 'exit' }).code).toBe(0);
    const prompt = hook('UserPromptSubmit', 's-2', {
      prompt: 'Why does python say ModuleNotFoundError for django?',
    });
    expect(prompt.code, prompt.stderr).toBe(0);
    const { receipt } = JSON.parse(
      cli.run(['pack', '--last', '--session', 's-2', '--json']).stdout,
    );
    const item = receipt.pack.items.find((i: { id: string }) => i.id === `pattern:${id}`);
    expect(item?.provenance.evidence).toEqual([
      { run: 's-1', agent: 'claude-code', role: 'origin', events: expect.any(Array) },
    ]);
    const last = cli.run(['pack', '--last', '--session', 's-2']);
    expect(last.stdout).toContain('evidence: run s-1 (claude-code, origin: ');
  });

  it('lists nothing, and creates no database, in a project that has met no failure', () => {
    expect(cli.run(['init']).code).toBe(0);
    const run = cli.run(['history', 'patterns']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No fix patterns yet');
    expect(cli.run(['history', 'pattern', 'FIX-000000000000']).code).toBe(1);
  });
});

describe('cairn history share', () => {
  const shared = (author: string, succeeded: number) =>
    [
      `<!-- cairn:fixes author=${author} format=1 -->`,
      `<!-- cairn:fix ${JSON.stringify({
        id: 'FIX-0123456789ab',
        namespace: 'default',
        signature: '0123456789abcdef',
        family: 'node',
        normalized: "node: Error | Cannot find module './lib/greet' [shell: node]",
        commandFamily: 'node',
        steps: [{ kind: 'edit', key: 'edit', detail: 'lib/greet.js' }],
        applied: 1,
        succeeded,
        failed: 0,
        learnedAt: '2026-03-01T10:00:00.000Z',
      })} -->`,
    ].join('\n');

  it("imports another clone's fix patterns once, and lists them with that clone's evidence", async () => {
    expect(cli.run(['init']).code).toBe(0);
    await mkdir(join(project.root, '.cairn/memory/fixes'), { recursive: true });
    await writeFile(join(project.root, '.cairn/memory/fixes/a1b2c3.md'), shared('a1b2c3', 2));
    const first = cli.run(['history', 'share', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ applied: ['fixes/a1b2c3.md'], added: 1 });
    expect(JSON.parse(cli.run(['history', 'share', '--json']).stdout)).toMatchObject({ added: 0 });
    const listed = JSON.parse(cli.run(['history', 'patterns', '--json']).stdout).patterns;
    expect(listed).toEqual([expect.objectContaining({ state: 'verified', succeeded: 2 })]);
    const shown = cli.run(['history', 'pattern', listed[0].id]);
    expect(shown.stdout).toContain(
      '.cairn/memory/fixes/a1b2c3.md (FIX-0123456789ab): applied 1, succeeded 2',
    );
  });

  it('exits 1 and imports nothing from a file that fails its schema', async () => {
    expect(cli.run(['init']).code).toBe(0);
    await mkdir(join(project.root, '.cairn/memory/fixes'), { recursive: true });
    await writeFile(
      join(project.root, '.cairn/memory/fixes/a1b2c3.md'),
      shared('a1b2c3', 2).replace('"succeeded":2', '"succeeded":"many"'),
    );
    const run = cli.run(['history', 'share']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Refused fixes/a1b2c3.md');
    expect(JSON.parse(cli.run(['history', 'patterns', '--json']).stdout).patterns).toEqual([]);
  });
});
