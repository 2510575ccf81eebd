import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let temp: TempProject;
beforeEach(async () => {
  temp = await makeTempProject();
  await mkdir(join(temp.root, 'source'));
  await mkdir(join(temp.root, 'restored'));
});
afterEach(() => temp.cleanup());

const source = cliRunner(() => join(temp.root, 'source'));
const restored = cliRunner(() => join(temp.root, 'restored'));

function lifecycle(event: string, payload: Record<string, unknown>) {
  const run = source.run(
    ['lifecycle', event],
    JSON.stringify({ agentId: 'codex', sessionKey: 's1', ...payload }),
  );
  expect(run.code, run.stderr).toBe(0);
}

describe('cairn export and cairn import', () => {
  it('move a project: history, search and patterns answer the same after the import', () => {
    expect(source.run(['init']).code).toBe(0);
    expect(source.run(['add', 'The kestrel cluster is the staging cluster.']).code).toBe(0);
    lifecycle('session-start', { cwd: join(temp.root, 'source') });
    lifecycle('user-prompt-submit', { prompt: 'We decided to index the kestrel logs nightly.' });
    lifecycle('session-end', {});
    const archive = join(temp.root, 'backup.jsonl.gz');
    const exported = source.run(['export', '--out', archive, '--json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ ok: true, path: archive });
    // An existing archive is never written over.
    const again = source.run(['export', '--out', archive]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('CONFLICT');

    const imported = restored.run(['import', archive]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Imported .* rows added, 0 already here; \d+ files restored/);
    for (const args of [
      ['search', 'kestrel', '--json'],
      ['history', 'runs', '--json'],
      ['threads', '--json'],
      ['head'],
    ]) {
      const mine = source.run(args);
      expect(restored.run(args).stdout, args.join(' ')).toBe(mine.stdout);
    }
    const twice = JSON.parse(restored.run(['import', archive, '--json']).stdout);
    expect(Object.values(twice.rows).every((s) => (s as { inserted: number }).inserted === 0)).toBe(
      true,
    );
  });

  it('refuses a damaged archive (exit 2) and a missing one (exit 1), changing nothing', async () => {
    expect(source.run(['init']).code).toBe(0);
    const archive = join(temp.root, 'backup.jsonl.gz');
    expect(source.run(['export', '--out', archive]).code).toBe(0);
    const text = gunzipSync(await readFile(archive)).toString('utf8');
    await writeFile(archive, gzipSync(text.replace('"format":"cairn-export"', '"format":"other"')));
    expect(restored.run(['init']).code).toBe(0);
    const before = await snapshotTree(join(temp.root, 'restored'));
    const refused = restored.run(['import', archive, '--json']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await snapshotTree(join(temp.root, 'restored'))).toEqual(before);
    const missing = restored.run(['import', join(temp.root, 'nope.gz')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_FOUND');
  });
});
