import { execFile } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STUB_RELATIVE_PATH, STUB_TEXT } from './plugin-stub';

/*
 * The committed loader, run as OpenCode runs it (a module whose exported
 * function gets {directory, worktree, client}), in a child Node against a
 * fake `npm i -g @cairn/cli` prefix: bin/cairn links to the CLI's bin.cjs
 * and the OpenCode plugin is a dependency under the CLI's node_modules.
 */
const run = promisify(execFile);

let temp: TempProject;
let project: string;

beforeEach(async () => {
  temp = await makeTempProject('cairn-opencode-stub-');
  project = join(temp.root, 'project');
  await mkdir(join(project, dirname(STUB_RELATIVE_PATH)), { recursive: true });
  await writeFile(join(project, STUB_RELATIVE_PATH), STUB_TEXT);
});
afterEach(() => temp.cleanup());

/** A CLI install at `prefix` whose plugin answers with where it was loaded from. */
async function fakeInstall(prefix: string): Promise<string> {
  const cli = join(prefix, 'lib', 'node_modules', '@cairn', 'cli');
  const plugin = join(cli, 'node_modules', '@cairn', 'harness-opencode');
  await mkdir(join(cli, 'dist'), { recursive: true });
  await writeFile(join(cli, 'dist', 'bin.cjs'), '#!/usr/bin/env node\n');
  await chmod(join(cli, 'dist', 'bin.cjs'), 0o755);
  await mkdir(join(plugin, 'dist'), { recursive: true });
  await writeFile(
    join(plugin, 'package.json'),
    JSON.stringify({
      name: '@cairn/harness-opencode',
      type: 'module',
      exports: { './plugin': { import: './dist/plugin.js', default: './dist/plugin.js' } },
    }),
  );
  await writeFile(
    join(plugin, 'dist', 'plugin.js'),
    'export const CairnPlugin = async (input) => ({ loadedFrom: import.meta.url, directory: input.directory });\n',
  );
  await mkdir(join(prefix, 'bin'), { recursive: true });
  await symlink(join(cli, 'dist', 'bin.cjs'), join(prefix, 'bin', 'cairn'));
  return join(prefix, 'bin');
}

const LOAD = `
const [stub, directory] = process.argv.slice(1);
const logs = [];
const client = { app: { log: async ({ body }) => logs.push(body.message) } };
const { CairnPlugin, ...others } = await import(stub);
const hooks = await CairnPlugin({ directory, worktree: directory, client });
console.log(JSON.stringify({ hooks, logs, exports: Object.keys(others) }));
`;

async function loadStub(path: string[]) {
  const stub = pathToFileURL(join(project, STUB_RELATIVE_PATH)).href;
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', LOAD, stub, project],
    { env: { PATH: path.join(delimiter) }, cwd: project },
  );
  return JSON.parse(stdout) as {
    hooks: { loadedFrom?: string; directory?: string };
    logs: string[];
    exports: string[];
  };
}

describe('the committed OpenCode plugin loader', () => {
  it('names no path and loads the plugin installed with the `cairn` on PATH', async () => {
    expect(STUB_TEXT).not.toMatch(/file:|\/work\/|\/home\/|\/usr\//);
    const bin = await fakeInstall(join(temp.root, 'prefix'));
    const loaded = await loadStub(['/nonexistent', 'relative/bin', bin]);
    expect(loaded.logs).toEqual([]);
    expect(loaded.exports).toEqual([]);
    expect(loaded.hooks.directory).toBe(project);
    expect(loaded.hooks.loadedFrom).toBe(
      pathToFileURL(
        join(
          temp.root,
          'prefix/lib/node_modules/@cairn/cli/node_modules/@cairn/harness-opencode/dist/plugin.js',
        ),
      ).href,
    );
  });

  it('without `cairn` on PATH does nothing and says so in one log line', async () => {
    const loaded = await loadStub(['/nonexistent']);
    expect(loaded.hooks).toEqual({});
    expect(loaded.logs).toHaveLength(1);
    expect(loaded.logs[0]).toContain('npm i -g @cairn/cli');
  });

  it('imports nothing from inside the project, even when PATH points there', async () => {
    const inside = await fakeInstall(join(project, 'node_modules', 'evil'));
    const loaded = await loadStub([inside, join(project, 'node_modules', '.bin')]);
    expect(loaded.hooks).toEqual({});
    expect(loaded.logs).toHaveLength(1);
    // A relative entry resolves against OpenCode's cwd (the project): skipped too.
    const relative = await loadStub(['node_modules/evil/bin']);
    expect(relative.hooks).toEqual({});
  });
});
