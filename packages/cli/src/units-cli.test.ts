import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath, parseMemoryDocument } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const cairn = (args: string[], input?: string) => cli.run(args, input);
const cairnAsync = (args: string[]) => cli.start(args);

const today = () => `${new Date().toISOString().slice(0, 10)}.md`;

describe('cairn add | get | list | replace | remove | search | doctor', () => {
  it('twenty `cairn add` processes at once yield twenty units in a clean file', {
    timeout: 60_000,
  }, async () => {
    cairn(['init']);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        cairnAsync([
          'add',
          `Parallel fact ${i}: service-${i} listens on port ${8000 + i}.`,
          '--json',
        ]),
      ),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, action: 'created' });
    }
    const parsed = parseMemoryDocument(
      await readFile(join(memoryWorkspacePath(project.root), today()), 'utf8'),
      today(),
    );
    expect(parsed.issues).toEqual([]);
    expect(parsed.units).toHaveLength(20);
    expect(JSON.parse(cairn(['list', '--json']).stdout).units).toHaveLength(20);
  });

  it('walks a unit through its life', () => {
    cairn(['init']);
    const added = JSON.parse(
      cairn(['add', 'We', 'decided', 'to', 'use', 'Fastify.', '--json']).stdout,
    );
    expect(added).toMatchObject({
      action: 'created',
      category: 'decision',
      text: 'We decided to use Fastify.',
    });
    const id = added.memoryId as string;
    expect(cairn(['add', 'we decided to use fastify']).stdout).toMatch(/^duplicate of UNIT:/);
    expect(JSON.parse(cairn(['get', id, '--json']).stdout).memory.text).toBe(
      'We decided to use Fastify.',
    );
    expect(cairn(['replace', id], 'We decided to use Hono.').code).toBe(0);
    const hits = JSON.parse(cairn(['search', 'Hono', '--json']).stdout).results;
    expect(hits[0]).toMatchObject({ memoryId: id, kind: 'UNIT' });
    expect(hits[0].snippet).not.toContain('cairn:memory');
    expect(cairn(['remove', id]).stdout).toMatch(/^removed /);
    expect(cairn(['get', id]).code).toBe(1);
  });

  it('a failed add prints one line with its code, exits 2 and writes nothing', async () => {
    cairn(['init']);
    const before = await snapshotTree(project.root);
    const result = cairn(['add', '--category', 'opinion', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^cairn: INVALID_CATEGORY: .+ — use one of .+\n$/);
    expect(cairn(['add'], '   ').stderr).toMatch(/^cairn: TEXT_REQUIRED: .+ — .+/);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('replace of RAW content fails with not_mutable (exit 1)', () => {
    cairn(['init']);
    const result = cairn(['replace', 'RAW:MEMORY.md#L1-L1', 'x', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      action: 'failed',
      error: 'not_mutable',
    });
  });

  it('doctor reports damaged markers and exits 1; reindex rebuilds', async () => {
    cairn(['init']);
    expect(cairn(['doctor']).code).toBe(0);
    await writeFile(
      join(memoryWorkspacePath(project.root), '2026-01-01.md'),
      'note\n<!-- cairn:memory:item:end -->\n',
    );
    const doctor = cairn(['doctor', '--json']);
    expect(doctor.code).toBe(1);
    expect(JSON.parse(doctor.stdout).issues[0]).toMatchObject({
      path: '2026-01-01.md',
      line: 2,
      kind: 'stray_end',
    });
    const reindex = JSON.parse(cairn(['reindex', '--json']).stdout);
    expect(reindex).toMatchObject({ ok: true });
    expect(reindex.filesScanned).toBeGreaterThan(0);
  });
});
