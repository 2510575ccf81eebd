import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { fakeSecretDump, fakeSecrets, leakedFakeSecrets, tempProjectPerTest } from '@cairn/testkit';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLancedbRetrievalAdapter, loadLancedb } from './index';
import { isRemoteUri } from './lancedb-options';
import { unit, writeWorkspaceFile } from './test-fixtures';

/**
 * With object storage (`s3://`, `gs://`, `az://`, any URI with a scheme)
 * the chunk text leaves the machine: it is stored redacted, and its vector
 * is made from the redacted text. No network here: LanceDB's `connect` is
 * handed a local folder in place of the bucket, and the rows are read back.
 */
describe('lancedb text in object storage is redacted', () => {
  const project = tempProjectPerTest((root) =>
    writeWorkspaceFile(root, '2026-03-01.md', unit(1, `Deploy keys:\n${fakeSecretDump()}`)),
  );
  const bucket = () => join(project.root, 'bucket');
  const embedded: string[] = [];

  const open = async (uri: string) => {
    const real = await loadLancedb();
    const adapter = createLancedbRetrievalAdapter(
      {
        rootDir: project.root,
        options: {
          uri,
          embedder: {
            id: 'recording',
            model: 'rec-1',
            dimensions: 4,
            embed: async (texts: string[]) => {
              embedded.push(...texts);
              return texts.map((t) => [t.length % 7, 1, 2, 3]);
            },
          },
          loadModules: async () => ({
            arrow: real.arrow,
            lancedb: {
              ...real.lancedb,
              connect: (_uri: string, options: object) => real.lancedb.connect(bucket(), options),
            } as typeof real.lancedb,
          }),
        },
      },
      { fallback: createFileRetrievalAdapter },
    );
    return project.closeAfter(adapter);
  };
  const storedText = async () => {
    const { lancedb } = await loadLancedb();
    const db = await lancedb.connect(bucket());
    const rows = await (await db.openTable('cairn_chunks')).query().select(['text']).toArray();
    db.close();
    return rows.map((r) => r.text as string).join('\n');
  };

  beforeEach(() => {
    embedded.length = 0;
  });

  it('classifies URIs: any scheme is remote, a path is local', () => {
    for (const uri of ['s3://b/p', 'gs://b/p', 'az://c/p', 'db://x', 'memory://t', 'HTTPS://h/x']) {
      expect(isRemoteUri(uri), uri).toBe(true);
    }
    for (const uri of ['/srv/lancedb', 'relative/lancedb', './x', 'C:\\data\\lancedb']) {
      expect(isRemoteUri(uri), uri).toBe(false);
    }
  });

  it('an s3:// table stores and embeds redacted text, and says so in status', async () => {
    const adapter = await open('s3://cairn-bucket/team-a');
    const hits = await adapter.recall({ agentId: 'x', query: 'deploy keys' });
    expect(hits.length).toBeGreaterThan(0);
    const stored = await storedText();
    expect(stored).toContain('[REDACTED:');
    expect(leakedFakeSecrets(stored)).toEqual([]);
    expect(leakedFakeSecrets(embedded.join('\n'))).toEqual([]);
    expect(leakedFakeSecrets(hits.map((h) => h.snippet).join('\n'))).toEqual([]);
    expect((await adapter.status()).details).toMatchObject({ redactsText: true });
  });

  it('a local folder keeps the text as written (it never leaves the machine)', async () => {
    const adapter = await open(join(project.root, 'local-db'));
    await adapter.recall({ agentId: 'x', query: 'deploy keys' });
    expect(leakedFakeSecrets(await storedText())).toHaveLength(fakeSecrets().length);
    expect((await adapter.status()).details).toMatchObject({ redactsText: false });
  });
});
