import { encodeRecordHeader, type MemoryRecordMeta } from '@cairn/core';
import { makeTempProject, writeWorkspaceFile } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recallMetadata } from './index-hits';
import { createIndexedRetrievalAdapter } from './indexed-retrieval-adapter';
import { keywordIndexRegistration } from './keyword-index.fixture';
import { chunkFile } from './sync-pool';

const meta: MemoryRecordMeta = {
  kind: 'fix_pattern',
  trustClass: 'approved',
  namespace: 'default',
  repo: 'shop',
  createdAt: '2026-05-01T09:00:00.000Z',
  runRef: { kind: 'run', id: 's-42' },
};
const record = `${encodeRecordHeader(meta)}\n# Fix pattern FIX-1\n\nThe quokka build fails until pnpm install runs.\n`;

describe('record chunks (seed 004 §6.2)', () => {
  it('gives every chunk of a records source its header, never the header text', () => {
    const chunks = chunkFile(record, 'history/fix-patterns/FIX-1.md', { records: true });
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      expect(chunk.record).toEqual(meta);
      expect(chunk.text).not.toContain('cairn:record');
    }
  });

  it('reads the header of any other source as nothing: repository text claims no trust class', () => {
    const chunks = chunkFile(record, 'notes.md', {});
    expect(chunks.every((chunk) => chunk.record === undefined)).toBe(true);
    expect(chunks.map((c) => c.text).join('\n')).not.toContain('cairn:record');
  });

  it('reports record_kind, trust_class, namespace, repo and run_ref in recall metadata', () => {
    const pool = { id: 'history', tier: 'warm' as const };
    const place = { path: 'a.md', startLine: 1, endLine: 2 };
    expect(recallMetadata(pool, { ...place, kind: 'RAW', record: meta })).toMatchObject({
      record_kind: 'fix_pattern',
      trust_class: 'approved',
      namespace_id: 'default',
      repo: 'shop',
      'run_ref.kind': 'run',
      'run_ref.id': 's-42',
    });
    expect(recallMetadata(pool, { ...place, kind: 'RAW' })).toMatchObject({
      record_kind: 'doc',
      trust_class: 'raw',
    });
    expect(recallMetadata(pool, { ...place, kind: 'UNIT', review: 'approved' })).toMatchObject({
      record_kind: 'long_term_shadow',
      trust_class: 'approved',
    });
  });
});

describe('record_kind through recall', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ root, cleanup } = await makeTempProject());
    await writeWorkspaceFile(root, 'MEMORY.md', '# Head\n\nThe quokka service is blue-green.\n');
  });
  afterEach(() => cleanup());

  it('keeps only the record kinds a filter names, in every tier asked for', async () => {
    const source = {
      key: 'history',
      records: true,
      list: () => [{ path: 'history/fix-patterns/FIX-1.md', bytes: record.length, mtimeMs: 1 }],
      read: async () => Buffer.from(record),
    };
    const adapter = createIndexedRetrievalAdapter(
      keywordIndexRegistration(),
      { rootDir: root },
      { sourcePools: [{ definition: { id: 'history', tier: 'warm', path: '.' }, source }] },
    );
    const all = await adapter.recall({ agentId: 'a', query: 'quokka' });
    expect(all.map((r) => r.metadata?.record_kind).sort()).toEqual(['doc', 'fix_pattern']);
    const patterns = await adapter.recall({
      agentId: 'a',
      query: 'quokka',
      filters: { record_kind: 'fix_pattern' },
    });
    expect(patterns.map((r) => r.metadata?.poolId)).toEqual(['history']);
    expect(patterns[0]?.metadata).toMatchObject({ trust_class: 'approved', 'run_ref.id': 's-42' });
    const docs = await adapter.recall({
      agentId: 'a',
      query: 'quokka',
      filters: { record_kind: 'doc' },
    });
    expect(docs.map((r) => r.metadata?.poolId)).toEqual(['workspace']);
  });
});
