import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
});
