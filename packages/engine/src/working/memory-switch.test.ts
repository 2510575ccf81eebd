import { join } from 'node:path';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { retrieveContextPack } from '../packs';

/** `memoryEnabled: false` (seed 004 §8 `MEMORY_ENABLED`): the master switch. */

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  project = await makeTempProject();
  const on = await open(true);
  await on.init();
  await on.add({ text: 'The staging cluster is called kestrel-stage.' });
  on.closeWorking();
  cairn = await open(false);
});
afterEach(async () => {
  cairn.closeWorking();
  await project.cleanup();
});

async function open(memoryEnabled: boolean): Promise<Cairn> {
  return openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC', memoryEnabled },
  });
}

const A = { agentId: 'claude', sessionKey: 's1', harness: 'claude-code', cwd: '' };

describe('memoryEnabled: false', () => {
  it('makes every hook event inject nothing and write nothing', async () => {
    const before = await snapshotTree(project.root);
    const { lifecycle } = cairn;
    const results = [
      await lifecycle.sessionStart({ ...A, cwd: project.root }),
      await lifecycle.userPromptSubmit({ ...A, prompt: 'deploy to kestrel-stage' }),
      await lifecycle.toolUse({ ...A, toolName: 'Bash', input: { command: 'x' }, output: 'boom' }),
      await lifecycle.preCompaction({ ...A }),
      await lifecycle.compactionComplete({ ...A, summary: 'We deployed kestrel-stage.' }),
      await lifecycle.sessionEnd({ ...A }),
    ];
    expect(results.map((result) => result.inject)).toEqual(['', '', '', '', '', '']);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('still refuses bad hook input with INVALID_INPUT', async () => {
    await expect(
      cairn.lifecycle.userPromptSubmit({ agentId: '', sessionKey: 's', prompt: 'x' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('reports every plane of a pack off, with the switch as the reason', async () => {
    const pack = await retrieveContextPack(
      { query: 'kestrel-stage', agentId: 'claude' },
      { rootDir: project.root, settings: cairn.settings, search: cairn.search, env: { PATH: '' } },
    );
    expect(pack.items).toEqual([]);
    expect(pack.text).toBe('');
    expect(pack.planes.map((plane) => [plane.status, plane.reason])).toEqual(
      Array(4).fill(['off', 'memory is off (memoryEnabled)']),
    );
  });

  it('leaves explicit reads working: the unit is still found by search', async () => {
    const hits = await cairn.search({ query: 'kestrel-stage', agentId: 'claude' });
    expect(hits[0]?.snippet).toContain('kestrel-stage');
  });
});
