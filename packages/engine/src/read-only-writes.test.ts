import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath, memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from './index';
import { GLOBAL_HEAD, HeadStore } from './working';

let project: TempProject;
let clock = 0;
const opened: Cairn[] = [];
beforeEach(async () => {
  project = await makeTempProject();
  clock = Date.parse('2026-05-01T09:00:00.000Z');
});
afterEach(async () => {
  for (const cairn of opened.splice(0)) cairn.closeWorking();
  await project.cleanup();
});

async function open(memoryBackendType: 'file' | 'readonly'): Promise<Cairn> {
  const cairn = await openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC', memoryBackendType },
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
  opened.push(cairn);
  return cairn;
}

/**
 * Every file of the project except `.cairn/state/` (lineage, head records,
 * locks: state, not memory) and `.cairn/index/` (derived: readonly recalls
 * through the file index, which deleting loses nothing of).
 */
async function memoryFiles(): Promise<Record<string, string>> {
  const tree = await snapshotTree(project.root);
  return Object.fromEntries(
    Object.entries(tree).filter(
      ([path]) => !path.startsWith('.cairn/state') && !path.startsWith('.cairn/index'),
    ),
  );
}

/** A project written with `file`: a unit, a rendered head and a thread head. */
async function seeded(): Promise<{ unitId: string }> {
  const writable = await open('file');
  await writable.init();
  const added = await writable.add({
    text: 'Deploys go through the kestrel pipeline.',
    category: 'decision',
    review: 'approved',
  });
  if (added.action !== 'created') throw new Error(`seed failed: ${added.action}`);
  const ids = { agentId: 'claude', sessionKey: 'seed', cwd: project.root };
  await writable.lifecycle.sessionStart(ids);
  await writable.lifecycle.sessionEnd(ids);
  writable.closeWorking();
  return { unitId: added.memoryId };
}

const A = { agentId: 'claude', sessionKey: 's1', harness: 'claude-code' };

describe('a read-only backend: every workspace write goes through one writer', () => {
  it('add, replace and remove answer READ_ONLY and change nothing', async () => {
    const { unitId } = await seeded();
    const before = await snapshotTree(project.root);
    const cairn = await open('readonly');
    expect(cairn.writer.writable).toBe(false);
    await expect(cairn.add({ text: 'A brand new memory.' })).rejects.toMatchObject({
      code: 'READ_ONLY',
      details: { backend: 'readonly', action: 'add a memory' },
    });
    await expect(cairn.replace(unitId, 'Deploys go by hand.')).rejects.toMatchObject({
      code: 'READ_ONLY',
    });
    await expect(cairn.remove(unitId)).rejects.toMatchObject({ code: 'READ_ONLY' });
    await expect(cairn.write('# replaced\n')).rejects.toMatchObject({ code: 'READ_ONLY' });
    expect(await snapshotTree(project.root)).toEqual(before);
    expect((await cairn.get(unitId)).text).toBe('Deploys go through the kestrel pipeline.');
  });

  it('a whole session leaves every memory file byte-identical, records lineage and still injects', async () => {
    await seeded();
    const before = await memoryFiles();
    const cairn = await open('readonly');
    const results = [
      await cairn.lifecycle.sessionStart({ ...A, cwd: project.root, source: 'startup' }),
      await cairn.lifecycle.userPromptSubmit({ ...A, prompt: 'how do deploys work here?' }),
      await cairn.lifecycle.toolUse({ ...A, toolName: 'Bash', input: { command: 'ls' } }),
      await cairn.lifecycle.preCompaction({ ...A, trigger: 'auto' }),
      await cairn.lifecycle.compactionComplete({
        ...A,
        summary: 'We decided to keep the kestrel pipeline. Next: write the runbook.',
      }),
      await cairn.lifecycle.sessionEnd(A),
    ];
    for (const result of results) expect(result.failed).toBeUndefined();
    expect(results[0]!.inject).toContain('kestrel pipeline');
    expect(await memoryFiles()).toEqual(before);
    // Lineage is state: the transcript and the summaries are recorded.
    const end = results[5]!;
    expect(end.nodeId).toMatch(/^node:/);
    const expanded = cairn.expand(end.nodeId!, 'claude');
    expect(expanded.transcript?.entries.map((entry) => entry.text)).toContain(
      'how do deploys work here?',
    );
    // The thread state (heads.db) stays current for reads; only its file is not rendered.
    expect(cairn.threads('claude').some((thread) => thread.sessions >= 2)).toBe(true);
    expect(cairn.workingHealth()).toMatchObject({ failures: [], pending: [] });
  });

  it('a skipped render leaves nothing pending and settles writes deferred before', async () => {
    await seeded();
    const heads = new HeadStore(project.root);
    heads.leases.defer(GLOBAL_HEAD.agentId, GLOBAL_HEAD.scope, 'lease held by a test');
    heads.close();
    const before = await memoryFiles();
    const cairn = await open('readonly');
    await cairn.lifecycle.sessionStart({ ...A, cwd: project.root });
    await cairn.lifecycle.sessionEnd(A);
    expect(cairn.workingHealth().pending).toEqual([]);
    expect(await memoryFiles()).toEqual(before);
  });

  it('init creates nothing; with no workspace it answers READ_ONLY', async () => {
    const cairn = await open('readonly');
    await expect(cairn.init()).rejects.toMatchObject({ code: 'READ_ONLY' });
    expect(existsSync(memoryWorkspacePath(project.root))).toBe(false);
    await seeded();
    const before = await snapshotTree(project.root);
    expect(await (await open('readonly')).init()).toEqual({ rootDir: project.root, created: [] });
    expect(await snapshotTree(project.root)).toEqual(before);
    expect(existsSync(join(cairnStatePath(project.root), 'lineage.db'))).toBe(true);
  });

  it('with a writable backend the same calls do write (the test above is not vacuous)', async () => {
    await seeded();
    const before = await memoryFiles();
    const cairn = await open('file');
    expect(cairn.writer.writable).toBe(true);
    await cairn.lifecycle.sessionStart({ ...A, cwd: project.root });
    await cairn.lifecycle.compactionComplete({ ...A, summary: 'We decided to ship on Friday.' });
    await cairn.lifecycle.sessionEnd(A);
    expect(await memoryFiles()).not.toEqual(before);
  });
});
