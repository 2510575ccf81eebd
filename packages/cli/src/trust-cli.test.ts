import { mkdir, writeFile } from 'node:fs/promises';
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

describe('cairn trust', () => {
  it('keeps every entry when ten `cairn trust` processes run at once', {
    timeout: 60_000,
  }, async () => {
    const roots = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const root = join(project.root, `p${i}`);
        await mkdir(join(root, '.cairn'), { recursive: true });
        await writeFile(join(root, '.cairn', 'config.json'), '{"timezone":"UTC"}\n');
        return root;
      }),
    );
    const runs = await Promise.all(roots.map((root) => cli.start(['trust', '--root', root])));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    for (const root of roots) {
      const status = cli.run(['status', '--json', '--root', root]);
      expect(JSON.parse(status.stdout).trust.projectConfig).toBe('trusted');
    }
  });
});
