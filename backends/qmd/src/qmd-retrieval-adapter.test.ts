import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileRetrievalAdapter } from '@cairn/backend-file';
import { describeRetrievalAdapter, tempProjectPerTest } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import {
  createQmdRetrievalAdapter,
  type QmdRetrievalAdapter,
  qmdRetrievalAdapter,
  qmdRetrievalCapabilities,
} from './index';
import { fakeQmd, realQmd, unit, unitId, writeWorkspaceFile } from './test-fixtures';

const command = [...(await realQmd())];

describeRetrievalAdapter({
  name: 'qmd (real qmd CLI, BM25)',
  capabilities: qmdRetrievalCapabilities,
  create: (rootDir) => createQmdRetrievalAdapter({ rootDir, options: { command } }),
  cleanup: (adapter) => (adapter as QmdRetrievalAdapter).close(),
});

describe('qmd retrieval adapter', { timeout: 60_000 }, () => {
  const project = tempProjectPerTest((root) =>
    writeWorkspaceFile(
      root,
      '2026-03-01.md',
      [
        unit(1, 'Deploys use the ibex blue-green pipeline.'),
        unit(2, 'Deploys once used an ibex canary pipeline.', { review: 'deprecated' }),
        unit(3, 'The ibex pipeline owner is Dana.', { category: 'fact' }),
      ].join('\n----\n'),
    ),
  );
  const open = (options: Record<string, unknown> = { command }) =>
    project.closeAfter(
      createQmdRetrievalAdapter(
        { rootDir: project.root, options },
        { fallback: createFileRetrievalAdapter },
      ),
    );

  it('is registered as "qmd" with keyword recall only', () => {
    expect(qmdRetrievalAdapter.id).toBe('qmd');
    expect(qmdRetrievalAdapter.capabilities).toEqual({
      semantic: false,
      keyword: true,
      graph: false,
    });
  });

  it('recalls units with metadata, leaves deprecated ones out and applies filters', async () => {
    const adapter = open();
    const results = await adapter.recall({ agentId: 'bob', query: 'ibex pipeline' });
    expect(results.map((r) => r.metadata?.memoryId).sort()).toEqual([unitId(1), unitId(3)]);
    expect(results[0]?.metadata).toMatchObject({ poolId: 'workspace', tier: 'hot', kind: 'UNIT' });
    const facts = await adapter.recall({
      agentId: 'bob',
      query: 'ibex pipeline',
      filters: { category: 'fact' },
    });
    expect(facts.map((r) => r.metadata?.memoryId)).toEqual([unitId(3)]);
    const all = await adapter.recall({
      agentId: 'bob',
      query: 'ibex pipeline',
      filters: { review: ['approved', 'deprecated'] },
    });
    expect(all).toHaveLength(3);
    expect(adapter.warnings).toEqual([]);
    expect((await adapter.status()).ok).toBe(true);
  });

  it('re-indexes a pool folder that changed since the last recall', async () => {
    await mkdir(join(project.root, 'docs'), { recursive: true });
    await writeFile(join(project.root, 'docs', 'a.md'), 'The ibex runbook.\n');
    const adapter = open();
    await adapter.registerPools([{ id: 'docs', tier: 'warm', path: 'docs' }]);
    const first = await adapter.recall({ agentId: 'bob', query: 'runbook', poolIds: ['docs'] });
    expect(first.map((r) => r.uri)).toEqual([join(project.root, 'docs', 'a.md')]);
    await writeFile(join(project.root, 'docs', 'b.md'), 'A second runbook.\n');
    const second = await adapter.recall({ agentId: 'bob', query: 'runbook', poolIds: ['docs'] });
    expect(second.map((r) => r.metadata?.path).sort()).toEqual(['a.md', 'b.md']);
  });

  it('falls back to the file adapter when qmd fails, and says so in status', async () => {
    const failing = await fakeQmd(project.root, 'failing-qmd', 'process.exit(1);');
    const adapter = open({ command: [...failing] });
    const results = await adapter.recall({ agentId: 'bob', query: 'ibex blue-green' });
    expect(results[0]?.snippet).toContain('blue-green');
    expect(adapter.warnings[0]).toMatch(/qmd recall failed, using the file adapter/);
    expect((await adapter.status()).details?.warnings).toEqual(adapter.warnings);
  });

  it('falls back when qmd is not installed', async () => {
    const original = process.env.PATH;
    process.env.PATH = project.root;
    try {
      const adapter = open({});
      const results = await adapter.recall({ agentId: 'bob', query: 'ibex blue-green' });
      expect(results[0]?.snippet).toContain('blue-green');
      expect(adapter.warnings[0]).toMatch(/qmd is not installed/);
      expect((await adapter.status()).ok).toBe(false);
    } finally {
      process.env.PATH = original;
    }
  });
});
