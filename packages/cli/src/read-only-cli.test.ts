import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const READ_ONLY_ENV = { CAIRN_MEMORY_BACKEND_TYPE: 'readonly' };
const writable = (args: string[], input?: string) => cli.run(args, input);
const readonly = (args: string[], input?: string) => cli.run(args, input, READ_ONLY_ENV);

/** A project written with the default backend: one approved unit. */
function seed(): string {
  writable(['init']);
  const added = JSON.parse(writable(['add', 'Releases are cut on Tuesdays.', '--json']).stdout);
  expect(added.action).toBe('created');
  return added.memoryId;
}

/**
 * Every file of the project except `.cairn/state/` (lineage and head
 * records are state) and `.cairn/index/` (derived: prompt recall reads the
 * file index, which deleting loses nothing of).
 */
async function memoryFiles(): Promise<Record<string, string>> {
  const tree = await snapshotTree(project.root);
  return Object.fromEntries(
    Object.entries(tree).filter(
      ([path]) => !path.startsWith('.cairn/state') && !path.startsWith('.cairn/index'),
    ),
  );
}

describe('memoryBackendType "readonly" through the CLI', () => {
  it('cairn add, replace and remove exit 1 with READ_ONLY and change nothing', async () => {
    const id = seed();
    const before = await snapshotTree(project.root);
    for (const args of [
      ['add', 'Hotfixes skip the release train.'],
      ['replace', id, 'Releases are cut on Mondays.'],
      ['remove', id],
    ]) {
      const text = readonly(args);
      expect(text.code, text.stderr).toBe(1);
      expect(text.stderr).toMatch(/READ_ONLY: .*read-only/);
      const json = readonly([...args, '--json']);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
    }
    expect(await snapshotTree(project.root)).toEqual(before);
    expect(readonly(['get', id]).stdout).toContain('Tuesdays');
  });

  it('Claude Code hooks still inject and record lineage but write no memory file', async () => {
    seed();
    const transcript = join(project.root, 'transcript.jsonl');
    await writeFile(transcript, '');
    const base = { session_id: 's1', cwd: project.root, transcript_path: transcript };
    const before = await memoryFiles();
    const start = readonly(
      ['hook', 'claude-code', 'SessionStart'],
      JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
    );
    expect(start.code, start.stderr).toBe(0);
    // Session start shows what is relevant to the thread's state (none yet); the prompt finds the unit.
    const prompt = readonly(
      ['hook', 'claude-code', 'UserPromptSubmit'],
      JSON.stringify({
        ...base,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'On which day are releases cut?',
      }),
    );
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('Tuesdays');
    const end = readonly(
      ['hook', 'claude-code', 'SessionEnd'],
      JSON.stringify({ ...base, hook_event_name: 'SessionEnd', reason: 'other' }),
    );
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr).toBe('');
    expect(await memoryFiles()).toEqual(before);
    expect(existsSync(join(cairnStatePath(project.root), 'lineage.db'))).toBe(true);
    expect(existsSync(join(cairnStatePath(project.root), 'lifecycle-errors.jsonl'))).toBe(false);
    expect(JSON.parse(readonly(['threads', '--json']).stdout).threads).toHaveLength(1);
  });
});
