import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

/**
 * One unit id in two daily files, as a git merge that kept both sides or a
 * copied file leaves it: every change refuses with CONFLICT naming each
 * place, doctor reports it with the command that resolves it, and the id
 * is injected once.
 */

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  expect(cli.run(['init']).code).toBe(0);
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const memory = (name: string) => join(memoryWorkspacePath(project.root), name);

/** A unit, then its daily file copied to another day with the copy edited. */
async function twoCopies(): Promise<{ id: string; first: string; second: string }> {
  const added = JSON.parse(
    cli.run(['add', '--json', '--', 'The kestrel deploy runs on Fridays.']).stdout,
  );
  const first = added.path as string;
  const second = '2001-01-01.md';
  await copyFile(memory(first), memory(second));
  const copy = await readFile(memory(second), 'utf8');
  await writeFile(memory(second), copy.replace('on Fridays', 'on Fridays at noon'));
  return { id: added.memoryId, first, second };
}

/** The line the unit's block starts on in a file. */
async function startLine(file: string, id: string): Promise<number> {
  const lines = (await readFile(memory(file), 'utf8')).split('\n');
  return lines.findIndex((line) => line.includes(`memory_id=${id}`)) + 1;
}

describe('the same unit id in two places', () => {
  it('remove, replace and review refuse with CONFLICT naming every place, and change nothing', async () => {
    const { id, first, second } = await twoCopies();
    const places = [
      `${first}:${await startLine(first, id)}`,
      `${second}:${await startLine(second, id)}`,
    ];
    const before = await snapshotTree(project.root);
    for (const argv of [
      ['remove', id],
      ['replace', id, 'The kestrel deploy runs on Mondays.'],
      ['review', 'approve', id],
    ]) {
      const run = cli.run([argv[0]!, '--json', ...argv.slice(1)]);
      expect(run.code, run.stdout).toBe(1);
      const body = JSON.parse(run.stdout);
      expect(body).toMatchObject({ ok: false, error: 'conflict' });
      for (const place of places) expect(body.message).toContain(place);
      expect(body.message).toContain(`cairn remove ${id} --at `);
    }
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('doctor reports it with the command that resolves it; `remove --at` keeps the other copy', async () => {
    const { id, first, second } = await twoCopies();
    const doctor = cli.run(['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `${id} is in 2 places (${second}:${await startLine(second, id)}, ${first}:${await startLine(first, id)})`,
    );
    const command = `cairn remove ${id} --at ${first}:${await startLine(first, id)}`;
    expect(doctor.stdout).toContain(`run \`${command}\``);
    // The id is injected once, whichever copy recall found.
    const pack = JSON.parse(cli.run(['pack', '--json', 'kestrel deploy Fridays']).stdout).pack;
    expect(pack.items.filter((item: { id: string }) => item.id === id)).toHaveLength(1);
    // A place with no copy is refused; the named copy goes, the other stays.
    const wrong = cli.run(['remove', id, '--at', `${second}:1`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`NOT_FOUND: ${id} has no copy at ${second}:1`);
    const removed = cli.run(['remove', id, '--at', command.split('--at ')[1]!]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(memory(first), 'utf8')).not.toContain(id);
    expect(await readFile(memory(second), 'utf8')).toContain(id);
    expect(cli.run(['doctor']).stdout).not.toContain('places');
    // One copy left (the edited one): the id changes as any other.
    expect(cli.run(['replace', id, 'The kestrel deploy runs on Mondays.']).code).toBe(0);
    expect(cli.run(['remove', id]).code).toBe(0);
    expect(JSON.parse(cli.run(['list', '--json']).stdout).units).toEqual([]);
  });
});
