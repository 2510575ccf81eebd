import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerIndex } from './backend-registrations';
import { type Cairn, openCairn, openMemorySearch } from './index';
import { openLineageStore } from './lineage';
import { retrieveContextPack } from './packs';
import { PROBE_WORD, probeRegistration } from './recall/probe-index.fixture';

const probe = probeRegistration();
registerIndex(probe);

let project: TempProject;
const opened: Cairn[] = [];
const ids = { agentId: 'claude', sessionKey: 's1' };

async function open(overrides: Record<string, unknown> = {}): Promise<Cairn> {
  const cairn = await openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC', ...overrides },
  });
  opened.push(cairn);
  return cairn;
}

beforeEach(async () => {
  project = await makeTempProject();
  const cairn = await open();
  await cairn.init();
  const added = await cairn.add({
    text: 'Deploys go through the kestrel pipeline.',
    category: 'decision',
    review: 'approved',
  });
  if (added.action !== 'created') throw new Error(`seed failed: ${added.action}`);
});
afterEach(async () => {
  for (const cairn of opened.splice(0)) cairn.closeWorking();
  await project.cleanup();
});

describe('retrievalAdapter: the index every recall path goes through', () => {
  it('an engine named only by retrievalAdapter answers search, openMemorySearch and prompt recall', async () => {
    const cairn = await open({ memoryBackendType: 'file', retrievalAdapter: 'probe' });
    const [hit] = await cairn.search({ query: PROBE_WORD });
    expect(hit).toMatchObject({ kind: 'UNIT', metadata: { engine: 'probe' } });
    expect(hit?.snippet).toContain('kestrel pipeline');
    const search = await openMemorySearch(project.root, {
      env: {},
      homeDir: join(project.root, 'home'),
      overrides: { retrievalAdapter: 'probe' },
    });
    expect((await search.search({ query: PROBE_WORD })).map((h) => h.memoryId)).toEqual([
      hit?.memoryId,
    ]);
    // Session start injects the first unit; one added after it reaches the agent through prompt recall.
    await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root });
    // An item enters a pack when it is relevant to the prompt: it holds the prompt's word.
    const later = await cairn.add({
      text: `Releases are tagged by hand (${PROBE_WORD}).`,
      review: 'approved',
    });
    if (later.action !== 'created') throw new Error(`unit not added: ${later.action}`);
    const prompt = await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: `${PROBE_WORD}?` });
    expect(prompt.inject).toContain(later.memoryId);
    // A draft is found by search but never injected (seed 004 §9).
    const draft = await cairn.add({
      text: `Releases might move to CI (${PROBE_WORD}).`,
      review: 'draft',
    });
    if (draft.action !== 'created') throw new Error(`draft not added: ${draft.action}`);
    expect((await cairn.search({ query: PROBE_WORD })).map((h) => h.memoryId)).toContain(
      draft.memoryId,
    );
    const again = await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: `${PROBE_WORD} now?` });
    expect(again.inject ?? '').not.toContain(draft.memoryId);
    const status = await cairn.status();
    expect(status.retrievalAdapter).toMatchObject({ requested: 'probe', resolved: 'probe' });
    expect(status.retrievalAdapter.status?.message).toMatch(/^Probe search over/);
  });

  it('without it (auto follows the file backend) the probe word finds nothing', async () => {
    const cairn = await open({ memoryBackendType: 'file' });
    expect(await cairn.search({ query: PROBE_WORD })).toEqual([]);
    expect((await cairn.status()).retrievalAdapter.resolved).toBe('file');
  });

  it('readonly keeps refusing writes while recall goes through the named engine', async () => {
    const cairn = await open({ memoryBackendType: 'readonly', retrievalAdapter: 'probe' });
    await expect(cairn.add({ text: 'A brand new memory.' })).rejects.toMatchObject({
      code: 'READ_ONLY',
    });
    expect(await cairn.search({ query: PROBE_WORD })).toHaveLength(1);
  });

  it('a backend and adapter of one engine share one index', async () => {
    const before = probe.created.length;
    const cairn = await open({ memoryBackendType: 'probe' });
    expect(await cairn.search({ query: PROBE_WORD })).toHaveLength(1);
    expect(await cairn.backend.search?.(project.root, { query: PROBE_WORD })).toHaveLength(1);
    await cairn.recall({ agentId: 'claude', query: PROBE_WORD, tiers: ['hot'] });
    expect(probe.created.length - before).toBe(1);
    expect(cairn.warnings).toEqual([]);
  });
});

describe('pools and tiers', () => {
  it('units are hot, summaries warm, transcripts cold; a hot recall opens no lineage', async () => {
    const cairn = await open();
    const hot = await cairn.recall({ agentId: 'claude', query: 'kestrel', tiers: ['hot'] });
    expect(hot.map((r) => r.metadata?.kind)).toEqual(['UNIT']);
    expect(existsSync(join(cairnStatePath(project.root), 'lineage.db'))).toBe(false);
    const store = openLineageStore(project.root);
    store.appendTranscriptEntry({ ...ids, role: 'user', text: 'is the kestrel pipeline green?' });
    store.addNode({
      ...ids,
      kind: 'session_summary',
      threadKey: 'main',
      source: 'harness',
      text: 'Fixed the kestrel pipeline retries.',
    });
    store.close();
    const warm = await cairn.recall({ agentId: 'claude', query: 'kestrel', tiers: ['warm'] });
    expect(warm.map((r) => r.metadata?.poolId)).toEqual(['summaries']);
    const cold = await cairn.recall({ agentId: 'claude', query: 'kestrel', tiers: ['cold'] });
    expect(cold.map((r) => [r.metadata?.poolId, r.snippet])).toEqual([
      ['transcripts', 'is the kestrel pipeline green?'],
    ]);
    const other = await cairn.recall({ agentId: 'codex', query: 'kestrel', tiers: ['warm'] });
    expect(other).toEqual([]);
  });

  it('recalls the project documents (cold) and the pack quotes them with path#heading', async () => {
    await writeFile(
      join(project.root, 'README.md'),
      '# Widget\n\nThe osprey deploy runs nightly.\n',
    );
    await mkdir(join(project.root, 'docs/adr'), { recursive: true });
    await writeFile(
      join(project.root, 'docs/adr/0001-osprey.md'),
      '# ADR 1\n\n## Decision\n\nWe deploy osprey with blue-green.\n',
    );
    const cairn = await open();
    expect(await cairn.recall({ agentId: 'claude', query: 'osprey' })).toEqual([]);
    const docs = await cairn.recall({ agentId: 'claude', query: 'osprey', tiers: ['cold'] });
    expect(docs.map((r) => r.metadata?.path).sort()).toEqual([
      'README.md',
      'docs/adr/0001-osprey.md',
    ]);
    const pack = await retrieveContextPack(
      { query: 'osprey blue-green', agentId: 'claude', planes: ['documents'] },
      {
        rootDir: project.root,
        settings: cairn.settings,
        search: (request) => cairn.search(request),
        recall: (query) => cairn.recall(query),
      },
    );
    const item = pack.items.find((i) => i.source === 'docs/adr/0001-osprey.md');
    expect(item).toMatchObject({
      plane: 'documents',
      trustClass: 'raw',
      provenance: { kind: 'document', id: 'docs/adr/0001-osprey.md#Decision', line: 3 },
    });
    expect(pack.planes.find((p) => p.plane === 'documents')?.status).toBe('ok');
  });
});
