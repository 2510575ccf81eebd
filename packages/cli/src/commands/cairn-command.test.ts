import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VERSION } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath, installCairnCommand } from './cairn-command';

let temp: TempProject;
let bin: string;
beforeEach(async () => {
  temp = await makeTempProject('cairn-command-');
  bin = join(temp.root, 'bin');
  await mkdir(bin);
});
afterEach(() => temp.cleanup());

describe('the command harness files run', () => {
  it('is `cairn` in both scopes when cairn is on PATH', async () => {
    await writeFile(join(bin, 'cairn'), '#!/bin/sh\n');
    await chmod(join(bin, 'cairn'), 0o755);
    const env = { PATH: `${join(temp.root, 'nothing')}:${bin}` };
    expect(findOnPath('cairn', env)).toBe(join(bin, 'cairn'));
    expect(installCairnCommand('project', env)).toEqual({ command: ['cairn'] });
    expect(installCairnCommand('user', env)).toEqual({ command: ['cairn'] });
  });

  it('is npx with the major version in committed files when cairn is not on PATH, and says so', async () => {
    await writeFile(join(bin, 'cairn'), 'not executable');
    const env = { PATH: bin };
    const project = installCairnCommand('project', env);
    expect(project.command).toEqual(['npx', '-y', `@cairn/cli@${VERSION.split('.')[0]}`]);
    expect(project.note).toMatch(/not on PATH.*npx -y @cairn\/cli@/);
    // User files may name this machine's Node and script.
    const user = installCairnCommand('user', env);
    expect(user.command[0]).toBe(process.execPath);
    expect(user.note).toMatch(/not on PATH/);
  });
});
