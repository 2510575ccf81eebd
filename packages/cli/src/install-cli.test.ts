import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const cairn = (args: string[]) => cli.run(args);

describe('cairn install through the built binary', () => {
  it('openclaw: links a folder that holds the plugin, and doctor checks it', async () => {
    expect(cairn(['install', 'openclaw']).code).toBe(0);
    const config = JSON.parse(
      await readFile(join(project.root, 'home', '.openclaw', 'openclaw.json'), 'utf8'),
    );
    const [dir] = config.plugins.load.paths as string[];
    // Not the CLI's own folder (the bundle's import.meta.url): the harness package.
    expect(existsSync(join(dir!, 'openclaw.plugin.json'))).toBe(true);
    const pkg = JSON.parse(await readFile(join(dir!, 'package.json'), 'utf8'));
    for (const entry of pkg.openclaw.extensions) expect(existsSync(join(dir!, entry))).toBe(true);
    expect(cairn(['doctor']).stdout).toMatch(/^harness openclaw \(project scope\): installed$/m);
    const json = JSON.parse(cairn(['doctor', '--json']).stdout);
    const status = json.harnesses.find((s: { harness: string }) => s.harness === 'openclaw');
    expect(status).toMatchObject({ installed: true, problems: [] });
  });

  it('doctor prints each harness section once', () => {
    expect(cairn(['install', 'openclaw']).code).toBe(0);
    expect(cairn(['install', 'opencode']).code).toBe(0);
    const doctor = cairn(['doctor']).stdout;
    expect(doctor.match(/^harness openclaw /gm)).toHaveLength(1);
    expect(doctor.match(/^harness opencode /gm)).toHaveLength(1);
    const json = JSON.parse(cairn(['doctor', '--json']).stdout);
    const ids = (json.harnesses as { harness: string }[]).map((status) => status.harness);
    expect(ids.filter((id) => id === 'openclaw')).toHaveLength(1);
  });

  it('claude-code: git sees no backup, and uninstall gives back the one-line file byte for byte', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
        cwd: project.root,
        encoding: 'utf8',
      });
    const settings = join(project.root, '.claude', 'settings.json');
    const ONE_LINE = '{"permissions":{"allow":["Bash"]}}';
    await mkdir(join(project.root, '.claude'), { recursive: true });
    await writeFile(settings, ONE_LINE);
    await writeFile(join(project.root, '.gitignore'), 'home/\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'start');
    expect(cairn(['install', 'claude-code']).code).toBe(0);
    const changed = git('status', '--porcelain', '--untracked-files=all');
    expect(changed).not.toMatch(/cairn-backup|\.cairn\/state/);
    expect(changed).toMatch(/^ M \.claude\/settings\.json$/m);
    expect(await readFile(settings, 'utf8')).not.toContain('\n');
    expect(cairn(['uninstall', 'claude-code']).code).toBe(0);
    expect(await readFile(settings, 'utf8')).toBe(ONE_LINE);
    expect(git('status', '--porcelain', '--untracked-files=all')).not.toMatch(
      /settings\.json|\.mcp\.json|cairn-backup/,
    );
  });
});
