import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CairnError, forgetSoundFolders } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GITIGNORE_COMMENT, planGitignoreEntries, withIgnoredPaths } from './gitignore-entries';
import { applyPlan, formatJsonLike, planJsonEdit } from './install-files';
import { installStateDir } from './install-ledger';

let temp: TempProject;
let target: Parameters<typeof applyPlan>[1];
let file: string;

beforeEach(async () => {
  temp = await makeTempProject('cairn-install-files-');
  target = {
    scope: 'project',
    projectRoot: join(temp.root, 'project'),
    homeDir: join(temp.root, 'home'),
    dryRun: false,
  };
  file = join(temp.root, 'project', 'settings.json');
  await mkdir(join(temp.root, 'project'), { recursive: true });
});
afterEach(() => temp.cleanup());

type Json = Record<string, unknown>;
const add = (value: Json) => ({ ...value, cairn: { on: true } });
const remove = ({ cairn: _, ...rest }: Json) => (Object.keys(rest).length ? rest : undefined);
const install = async () => applyPlan('h', target, [await planJsonEdit(file, add)]);
const uninstall = async () =>
  applyPlan('h', target, [await planJsonEdit(file, remove)], { uninstall: true });
const ONE_LINE = '{"permissions":{"allow":["Bash"]}}';

describe('install backups and records', () => {
  it('keeps backups under the state folder, never beside the file', async () => {
    await writeFile(file, ONE_LINE);
    const report = await install();
    const backup = report.changes[0]!.backup!;
    expect(backup.startsWith(join(installStateDir(target), 'h'))).toBe(true);
    expect(await readFile(backup, 'utf8')).toBe(ONE_LINE);
    expect(await readdir(join(temp.root, 'project'))).toEqual(['.cairn', 'settings.json']);
  });

  it('user scope keeps them in $XDG_STATE_HOME/cairn, else ~/.local/state/cairn', () => {
    const user = { ...target, scope: 'user' as const };
    expect(installStateDir(user)).toBe(
      join(temp.root, 'home', '.local', 'state', 'cairn', 'install-backups'),
    );
    expect(installStateDir({ ...user, env: { XDG_STATE_HOME: '/x' } })).toBe(
      join('/x', 'cairn', 'install-backups'),
    );
  });

  it('a user install refuses a state folder below a folder others can write, changing nothing', async () => {
    const open = join(temp.root, 'open');
    await mkdir(open);
    await chmod(open, 0o777);
    await writeFile(file, ONE_LINE);
    const user = {
      ...target,
      scope: 'user' as const,
      env: { XDG_STATE_HOME: join(open, 'state') },
    };
    const plan = [await planJsonEdit(file, add)];
    for (const dryRun of [true, false]) {
      const error = await applyPlan('h', { ...user, dryRun }, plan).then(
        () => undefined,
        (caught: unknown) => caught as CairnError,
      );
      expect(error?.code).toBe('INVALID_CONFIG');
      expect(error?.message).toContain(`run \`chmod go-w ${open}\``);
    }
    expect(await readFile(file, 'utf8')).toBe(ONE_LINE);
    expect(await readdir(open)).toEqual([]);
    // Its own state folder: installed, with the record that uninstall reads.
    await chmod(open, 0o755);
    forgetSoundFolders();
    expect((await applyPlan('h', user, plan)).changes[0]!.action).toBe('update');
    expect(await readdir(join(open, 'state', 'cairn', 'install-backups', 'h'))).toHaveLength(2);
  });

  it('uninstall restores the original bytes when nothing else changed the file', async () => {
    await writeFile(file, ONE_LINE);
    await install();
    expect(await readFile(file, 'utf8')).toBe(
      '{"permissions":{"allow":["Bash"]},"cairn":{"on":true}}',
    );
    await uninstall();
    expect(await readFile(file, 'utf8')).toBe(ONE_LINE);
  });

  it('uninstall deletes a file the install created, and keeps a second install exact', async () => {
    await install();
    await install();
    expect((await uninstall()).changes[0]!.action).toBe('delete');
    expect(await readdir(join(temp.root, 'project'))).not.toContain('settings.json');
  });

  it('a file changed since the install loses only Cairn entries and keeps its layout', async () => {
    await writeFile(file, ONE_LINE);
    await install();
    const edited = (await readFile(file, 'utf8')).replace('"Bash"', '"Bash","Read"');
    await writeFile(file, edited);
    await uninstall();
    expect(await readFile(file, 'utf8')).toBe('{"permissions":{"allow":["Bash","Read"]}}');
  });
});

describe('formatJsonLike', () => {
  it('reuses tabs, four spaces, CRLF and a missing final newline', () => {
    expect(formatJsonLike({ a: [1] }, '{\n\t"x": 1\n}\n')).toBe('{\n\t"a": [\n\t\t1\n\t]\n}\n');
    expect(formatJsonLike({ a: 1 }, '{\r\n    "x": 1\r\n}')).toBe('{\r\n    "a": 1\r\n}');
    expect(formatJsonLike({ a: 1 }, undefined)).toBe('{\n  "a": 1\n}\n');
  });
});

describe('folders the install created', () => {
  const nested = () => join(temp.root, 'project', '.tool', 'plugin', 'cairn.json');
  const plan = async (path: string, uninstalling: boolean) =>
    applyPlan('h', target, [await planJsonEdit(path, uninstalling ? remove : add)], {
      uninstall: uninstalling,
    });

  it('are removed by uninstall when it leaves them empty, deepest first', async () => {
    await plan(nested(), false);
    const dry = await applyPlan(
      'h',
      { ...target, dryRun: true },
      [await planJsonEdit(nested(), remove)],
      { uninstall: true },
    );
    const folders = [
      join(temp.root, 'project', '.tool', 'plugin'),
      join(temp.root, 'project', '.tool'),
    ];
    expect(dry.changes.slice(1).map((change) => [change.action, change.path])).toEqual(
      folders.map((folder) => ['delete', folder]),
    );
    const report = await plan(nested(), true);
    expect(report.changes.slice(1).map((change) => change.path)).toEqual(folders);
    expect(await readdir(join(temp.root, 'project'))).toEqual(['.cairn']);
  });

  it('stay when they hold anything else, and a folder that was there before always stays', async () => {
    await mkdir(join(temp.root, 'project', '.tool'));
    await plan(nested(), false);
    await writeFile(join(temp.root, 'project', '.tool', 'plugin', 'mine.txt'), 'user file');
    expect((await plan(nested(), true)).changes).toHaveLength(1);
    expect(await readdir(join(temp.root, 'project', '.tool', 'plugin'))).toEqual(['mine.txt']);
    // Emptied later by the user: the next uninstall still knows the folder is Cairn's.
    await rm(join(temp.root, 'project', '.tool', 'plugin', 'mine.txt'));
    await plan(nested(), false);
    await plan(nested(), true);
    expect(await readdir(join(temp.root, 'project', '.tool'))).toEqual([]);
  });
});

describe('withIgnoredPaths', () => {
  it('appends a missing path once, keeping every other byte and the line ends', () => {
    const path = '.claude/settings.local.json';
    expect(withIgnoredPaths(undefined, [path])).toBe(`${GITIGNORE_COMMENT}\n/${path}\n`);
    const crlf = 'node_modules/\r\ndist';
    const once = withIgnoredPaths(crlf, [path])!;
    expect(once).toBe(`node_modules/\r\ndist\r\n${GITIGNORE_COMMENT}\r\n/${path}\r\n`);
    expect(withIgnoredPaths(once, [path])).toBe(once);
    expect(withIgnoredPaths(`${path}\n`, [path])).toBe(`${path}\n`);
  });

  it('keeps bytes that are not UTF-8 through the planned edit', async () => {
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2f, 0x0a]); // "café/" in Latin-1
    const gitignore = join(temp.root, 'project', '.gitignore');
    await writeFile(gitignore, bytes);
    const planned = await planGitignoreEntries(join(temp.root, 'project'), ['.x/local.json']);
    await applyPlan('h', target, [planned]);
    const after = await readFile(gitignore);
    expect(after.subarray(0, bytes.length)).toEqual(bytes);
    expect(after.subarray(bytes.length).toString('utf8')).toBe(
      `${GITIGNORE_COMMENT}\n/.x/local.json\n`,
    );
  });
});
