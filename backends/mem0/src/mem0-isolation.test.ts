import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { twoCheckoutsPerTest } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createMem0RetrievalAdapter, type Mem0RetrievalAdapter } from './index';
import { unitId } from './test-fixtures';

/**
 * Two checkouts named alike (`…/one/app` and `…/two/app`) sharing one
 * Mem0 vector store and one namespace: the default namespace (the folder
 * name) is the same for both, so only the `repo` partition keeps them apart.
 */
describe('mem0 isolation between projects sharing a store', () => {
  const checkouts = twoCheckoutsPerTest();
  const open = (rootDir: string, options: Record<string, unknown> = {}) =>
    checkouts.closeAfter(
      createMem0RetrievalAdapter(
        {
          rootDir,
          options: {
            vectorStore: {
              provider: 'memory',
              config: { dbPath: join(checkouts.root, 'shared.db') },
            },
            dataDir: join(checkouts.root, 'mem0-data'),
            ...options,
          },
        },
        { fallback: createFileRetrievalAdapter },
      ),
    );

  const ids = async (adapter: Mem0RetrievalAdapter) =>
    (await adapter.recall({ agentId: 'bob', query: 'wombat scheduler runs' })).map((r) => r.id);

  it('a search from one project never returns the other one’s entries', async () => {
    const a = open(checkouts.appA);
    const b = open(checkouts.appB);
    await a.rebuild();
    await b.rebuild();
    expect(await ids(a)).toEqual([unitId(1)]);
    expect(await ids(b)).toEqual([unitId(2)]);
    // A rebuild clears only its own partition.
    await a.rebuild();
    expect(await ids(b)).toEqual([unitId(2)]);
  });
});
