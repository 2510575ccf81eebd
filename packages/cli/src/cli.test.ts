import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;

beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root);
const cairn = (args: string[], input?: string, extraEnv: NodeJS.ProcessEnv = {}) =>
  cli.run(args, input, extraEnv);

describe('cairn CLI (built binary)', () => {
  it('init then status: the main job on the embedded default', () => {
    const init = cairn(['init']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('created .cairn/memory/MEMORY.md');
    const status = cairn(['status', '--json']);
    expect(status.code).toBe(0);
    const json = JSON.parse(status.stdout);
    expect(json).toMatchObject({ ok: true, initialized: true, backend: { resolved: 'file' } });
    expect(json.sources.memoryBackendType).toEqual({ kind: 'default' });
    const text = cairn(['status', '--all']);
    expect(text.stdout).toMatch(/memoryBackendType\s+"file"\s+\(default\)/);
  });

  it('status prints the recall adapter state that --json gives, healthy or falling back', async () => {
    cairn(['init']);
    const recallLine = () => cairn(['status']).stdout.match(/^ {2}recall {6}(.*)$/m)?.[1];
    const recallStatus = () =>
      JSON.parse(cairn(['status', '--json']).stdout).retrievalAdapter.status;
    expect(recallStatus()).toMatchObject({ ok: true, message: 'full-text index over 2 pool(s)' });
    expect(recallLine()).toBe('ok: full-text index over 2 pool(s)');
    // A LanceDB folder under a plain file cannot be created: recall falls back to the file adapter.
    await writeFile(join(project.root, 'not-a-folder'), '');
    const userConfig = join(project.root, 'home', '.config', 'cairn', 'config.json');
    await mkdir(join(userConfig, '..'), { recursive: true });
    await writeFile(
      userConfig,
      JSON.stringify({
        memoryBackendType: 'lancedb',
        memoryBackendOptions: { uri: join(project.root, 'not-a-folder', 'lancedb') },
      }),
    );
    const failing = recallStatus();
    expect(failing.ok).toBe(false);
    expect(failing.message).toMatch(/^LanceDB unavailable, recall uses the file adapter: /);
    expect(recallLine()).toBe(`NOT ok: ${failing.message}`);
  });

  it('write from stdin then read, as text and JSON', () => {
    cairn(['init']);
    expect(cairn(['write'], '# Memory ✓\n').code).toBe(0);
    expect(cairn(['read']).stdout).toBe('# Memory ✓\n');
    expect(JSON.parse(cairn(['read', '--json']).stdout)).toMatchObject({
      ok: true,
      content: '# Memory ✓\n',
      exists: true,
    });
  });

  it('write --file reads the content from a file', async () => {
    cairn(['init']);
    await writeFile(join(project.root, 'in.md'), 'from file\n');
    expect(cairn(['write', '--file', 'in.md', '--json']).code).toBe(0);
    expect(cairn(['read']).stdout).toBe('from file\n');
  });

  it('shows env sources and warns about an unknown backend on every command', () => {
    cairn(['init']);
    const status = JSON.parse(
      cairn(['status', '--json'], undefined, { CAIRN_MEMORY_BACKEND_TYPE: 'weaviate' }).stdout,
    );
    expect(status.sources.memoryBackendType).toEqual({
      kind: 'env',
      variable: 'CAIRN_MEMORY_BACKEND_TYPE',
    });
    expect(status.backend).toMatchObject({ requested: 'weaviate', resolved: 'file' });
    expect(status.warnings[0]).toMatch(/"weaviate" is not registered/);
    const read = cairn(['read'], undefined, { CAIRN_MEMORY_BACKEND_TYPE: 'weaviate' });
    expect(read.code).toBe(0);
    expect(read.stderr).toMatch(/^cairn: warning: .*weaviate/);
  });

  it.each([
    [['frobnicate'], 2, 'INVALID_INPUT'],
    [['status', '--bogus'], 2, 'INVALID_INPUT'],
    [['read', 'extra'], 2, 'INVALID_INPUT'],
    [['write', '--file', 'missing.md'], 2, 'INVALID_INPUT'],
  ])('%j exits %i with %s on one line and changes nothing', async (args, code, errorCode) => {
    cairn(['init']);
    const before = await snapshotTree(project.root);
    const result = cairn(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(new RegExp(`^cairn: ${errorCode}: .+ — .+\\n$`));
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('an invalid project config exits 3 naming file and key, and changes nothing', async () => {
    await mkdir(join(project.root, '.cairn'), { recursive: true });
    await writeFile(join(project.root, '.cairn', 'config.json'), '{"limits":{"searchLimit":0}}');
    const before = await snapshotTree(project.root);
    for (const args of [['init'], ['write'], ['status']]) {
      const result = cairn(args, 'new content');
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/INVALID_CONFIG: .*"limits\.searchLimit".*config\.json/);
    }
    const json = JSON.parse(cairn(['status', '--json']).stdout);
    expect(json).toMatchObject({ ok: false, error: { code: 'INVALID_CONFIG' } });
    expect(json.error.details.key).toBe('limits.searchLimit');
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('a readonly backend refuses write with exit 1 and keeps MEMORY.md', async () => {
    cairn(['init']);
    const memory = join(project.root, '.cairn', 'memory', 'MEMORY.md');
    const original = await readFile(memory, 'utf8');
    const result = cairn(['write', '--json'], 'x', { CAIRN_MEMORY_BACKEND_TYPE: 'readonly' });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.code).toBe('READ_ONLY');
    expect(await readFile(memory, 'utf8')).toBe(original);
  });

  it('prints help and the version', () => {
    expect(cairn(['--help']).stdout).toContain('Usage: cairn <command>');
    expect(cairn([]).code).toBe(2);
    expect(cairn(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
