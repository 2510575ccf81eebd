import { openCairn } from '@cairn/engine';
import { makeTempProject } from '@cairn/testkit';
import { expect, it } from 'vitest';
import { measurePluginOverhead } from './measure-plugin';

it('measures every hook of whole sessions in-process (figures are for the bench, not asserted)', async () => {
  const project = await makeTempProject('cairn-opencode-measure-');
  try {
    await (await openCairn(project.root, { env: {} })).init();
    const overhead = await measurePluginOverhead({ root: project.root, sessions: 2 });
    expect(overhead.map((o) => o.hook)).toEqual([
      'session.created',
      'chat.message',
      'tool.execute.after',
      'experimental.chat.system.transform',
      'experimental.session.compacting',
      'session.compacted',
      'session.idle',
    ]);
    expect(overhead.every((o) => o.calls === 2)).toBe(true);
    const memory = await openCairn(project.root, { env: {} });
    expect(memory.threads('opencode')[0]?.lineage.length).toBeGreaterThan(0);
    memory.closeWorking();
  } finally {
    await project.cleanup();
  }
});
