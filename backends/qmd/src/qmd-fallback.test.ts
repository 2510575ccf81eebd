import { createFileBackend } from '@cairn/backend-file';
import { tempProjectPerTest } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createQmdBackend, type QmdBackend, type QmdBackendOptions } from './index';
import { fakeQmd, writeWorkspaceFile } from './test-fixtures';

/** Fallback: when qmd is missing, fails, hangs or talks nonsense, the file index answers. */
describe('qmd backend falls back to the file index', () => {
  const project = tempProjectPerTest((root) =>
    writeWorkspaceFile(root, 'MEMORY.md', '# Notes\n\nThe heron job runs nightly.\n'),
  );
  const open = (options: QmdBackendOptions) =>
    // The engine composes the file index as the fallback; so does this test.
    project.closeAfter(createQmdBackend(options, { fallback: createFileBackend }));

  async function expectFallback(backend: QmdBackend, warning: RegExp): Promise<void> {
    const hits = await backend.search(project.root, { query: 'heron nightly' });
    expect(hits.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    expect(hits[0]!.snippet).toContain('heron');
    expect(backend.warnings).toHaveLength(1);
    expect(backend.warnings[0]).toMatch(warning);
  }

  it('when qmd is not installed (nothing on PATH, no command)', async () => {
    const original = process.env.PATH;
    process.env.PATH = project.root;
    try {
      const told: string[] = [];
      const backend = open({ onWarning: (message) => told.push(message) });
      expect(backend.command).toBeUndefined();
      await expectFallback(backend, /qmd is not installed.*npm i -g @tobilu\/qmd/);
      expect(told).toEqual(backend.warnings);
      await expect(backend.rebuild(project.root)).rejects.toMatchObject({
        code: 'BACKEND_UNAVAILABLE',
      });
    } finally {
      process.env.PATH = original;
    }
  });

  it('when the configured command does not exist', async () => {
    const backend = open({ command: '/nonexistent/bin/qmd' });
    await expectFallback(backend, /qmd search failed.*BACKEND_UNAVAILABLE.*not installed/);
  });

  it('when qmd exits with an error', async () => {
    const command = await fakeQmd(
      project.root,
      'failing-qmd',
      "process.stderr.write('SqliteError: database disk image is malformed\\n'); process.exit(3);",
    );
    const backend = open({ command: [...command] });
    await expectFallback(backend, /qmd search failed.*code 3.*malformed/);
  });

  it('when qmd does not answer in time (its process is killed)', async () => {
    const command = await fakeQmd(
      project.root,
      'hanging-qmd',
      "process.argv.includes('search') ? setInterval(() => {}, 1000) : process.exit(0);",
    );
    const backend = open({ command: [...command], searchTimeoutMs: 300 });
    await expectFallback(backend, /qmd search failed.*did not answer within 300 ms/);
  });

  it('when qmd prints something that is not its JSON', async () => {
    const command = await fakeQmd(
      project.root,
      'chatty-qmd',
      "if (process.argv.includes('search')) console.log('Usage: qmd search <query>');",
    );
    const backend = open({ command: [...command] });
    await expectFallback(backend, /unexpected output: no JSON array/);
  });

  it('bad input is an error, not a fallback, and changes nothing', async () => {
    const backend = open({ command: '/nonexistent/bin/qmd' });
    await expect(backend.search(project.root, { query: '  ' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(backend.warnings).toEqual([]);
    expect(() => createQmdBackend({ searchTimeoutMs: -1 })).toThrow(/searchTimeoutMs/);
    expect(() => createQmdBackend({ collection: '../x' })).toThrow(/collection/);
    expect(() => createQmdBackend({ nope: 1 } as QmdBackendOptions)).toThrow(/unknown option/);
  });
});
