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
    expect(run.stderr).toContain('Unknown history command "digest"');
  });
});
