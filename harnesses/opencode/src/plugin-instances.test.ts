import { openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnPlugin } from './plugin';
import type { OpencodeClientLike } from './plugin-hooks';
import { STAND_DOWN_MESSAGE } from './plugin-instances';

let project: TempProject;
const logs: string[] = [];
const client: OpencodeClientLike = {
  session: { get: async () => ({ data: undefined }), messages: async () => ({ data: [] }) },
  app: { log: async ({ body }) => logs.push(body.message) },
};

beforeEach(async () => {
  project = await makeTempProject('cairn-opencode-instances-');
  const cairn = await openCairn(project.root, { env: {} });
  await cairn.init();
  cairn.closeWorking();
  logs.length = 0;
});
afterEach(() => project.cleanup());

describe('the plugin loaded twice for one project (installed at both scopes)', () => {
  it('serves the project once: the second copy stands down until the first is disposed', async () => {
    const first = await CairnPlugin({ directory: project.root, client });
    const second = await CairnPlugin({ directory: project.root, client });
    expect(Object.keys(first)).toContain('chat.message');
    expect(second).toEqual({});
    expect(logs).toEqual([`${STAND_DOWN_MESSAGE} (${project.root})`]);

    await first.dispose!();
    const next = await CairnPlugin({ directory: project.root, client });
    expect(Object.keys(next)).toContain('experimental.chat.system.transform');
    await next.dispose!();
  });

  it('serves two projects in one process side by side', async () => {
    const other = await makeTempProject('cairn-opencode-instances-');
    try {
      const cairn = await openCairn(other.root, { env: {} });
      await cairn.init();
      cairn.closeWorking();
      const a = await CairnPlugin({ directory: project.root, client });
      const b = await CairnPlugin({ directory: other.root, client });
      expect(Object.keys(a)).toContain('chat.message');
      expect(Object.keys(b)).toContain('chat.message');
      await a.dispose!();
      await b.dispose!();
    } finally {
      await other.cleanup();
    }
  });
});
