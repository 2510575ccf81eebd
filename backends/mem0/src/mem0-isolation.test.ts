import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMem0RetrievalAdapter, type Mem0RetrievalAdapter } from './index';
import { unit, unitId, writeWorkspaceFile } from './test-fixtures';

/**
 * Two checkouts named alike (`…/one/app` and `…/two/app`) sharing one
 * Mem0 vector store and one namespace: the default namespace (the folder
 * name) is the same for both, so only the `repo` partition keeps them apart.
 */
describe('mem0 isolation between projects sharing a store', () => {
  let temp: TempProject;
  let appA: string;
  let appB: string;
  const adapters: Mem0RetrievalAdapter[] = [];
  const open = (rootDir: string, options: Record<string, unknown> = {}) => {
    const adapter = createMem0RetrievalAdapter(
      {
        rootDir,
        options: {
          vectorStore: { provider: 'memory', config: { dbPath: join(temp.root, 'shared.db') } },
          dataDir: join(temp.root, 'mem0-data'),
          ...options,
        },
      },
      { fallback: createFileRetrievalAdapter },
    );
    adapters.push(adapter);
    return adapter;
  };

  beforeEach(async () => {
    temp = await makeTempProject();
    appA = join(temp.root, 'one', 'app');
    appB = join(temp.root, 'two', 'app');
    await mkdir(appA, { recursive: true });
    await mkdir(appB, { recursive: true });
    await writeWorkspaceFile(appA, '2026-03-01.md', unit(1, 'The wombat scheduler runs hourly.'));
    await writeWorkspaceFile(
      appB,
      '2026-03-01.md',
      unit(2, 'The wombat scheduler of project two runs daily.'),
    );
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((a) => a.close()));
    await temp.cleanup();
  });

  const ids = async (adapter: Mem0RetrievalAdapter) =>
    (await adapter.recall({ agentId: 'bob', query: 'wombat scheduler runs' })).map((r) => r.id);

  it('a search from one project never returns the other one’s entries', async () => {
    const a = open(appA);
    const b = open(appB);
    await a.rebuild();
    await b.rebuild();
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(await ids(b)).toEqual([unitId(2)]);
    // A rebuild clears only its own partition.
    await a.rebuild();
    expect(await ids(b)).toEqual([unitId(2)]);
  });
});
