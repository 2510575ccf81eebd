import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CairnError } from '@cairn/core';
import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { openLineageStore } from '../lineage';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import { retrieveContextPack } from './retrieve-context-pack';

let project: TempProject;
let cairn: Cairn;
const at = '2026-05-01T08:00:00.000Z';

beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

const sources = (memory: Partial<Cairn['settings']['memory']> = {}) => ({
  rootDir: project.root,
  settings: { ...cairn.settings, memory: { ...cairn.settings.memory, ...memory } },
  search: cairn.search,
  env: { PATH: '' },
});

async function writeBeads() {
  const issue = (id: string, title: string) => ({
    id,
    title,
    description: 'Pack planes under one budget.',
    status: 'open',
    priority: 1,
    issue_type: 'task',
    created_at: at,
    updated_at: at,
  });
  await mkdir(join(project.root, '.beads'), { recursive: true });
  await writeFile(
    join(project.root, '.beads', 'issues.jsonl'),
    `${JSON.stringify(issue('bd-1', 'Context packs gateway'))}\n`,
  );
}

function writeHistory() {
  const store = openLineageStore(project.root);
  try {
    const node = (threadKey: string, sessionKey: string, text: string) =>
      store.addNode({
        agentId: 'claude',
        kind: 'session_summary',
        threadKey,
        sessionKey,
        startAt: at,
        endAt: at,
        source: 'extractive',
        text,
      });
    return {
      mine: node('main', 's1', 'Worked on the deploy script; the gateway budget held.').id,
      other: node('feature-x', 's2', 'Unrelated work on another branch.').id,
    };
  } finally {
    store.close();
  }
}

async function seedUnits() {
  await cairn.add({ text: 'Deploys run on Fridays through the deploy script.' });
  await cairn.add({ text: 'Draft: deploys might move to Mondays.', review: 'draft' });
}

describe('retrieveContextPack', () => {
  it('gathers the planes in seed order and reports each', async () => {
    await writeBeads();
    await seedUnits();
    const { mine, other } = writeHistory();
    const pack = await retrieveContextPack(
      { query: 'deploy script bd-1', agentId: 'claude', threadKey: 'main', budgetTokens: 2000 },
      sources(),
    );
    expect(pack.planes.map((p) => [p.plane, p.status])).toEqual([
      ['planning', 'ok'],
      ['history', 'ok'],
      ['long-term', 'ok'],
      ['documents', 'off'],
    ]);
    // This caller gave no recall, so there is nothing to read documents with: said so.
    expect(pack.planes[3]?.reason).toBe('no recall in this caller: it reads no documents');
    const planes = pack.items.map((item) => item.plane);
    expect(planes).toEqual([...planes].sort((a, b) => order(a) - order(b)));
    expect(pack.items.some((i) => i.id === 'beads:bd-1')).toBe(true);
    // A summary's words are the transcript's: a quoted excerpt (docs/PACKS.md "Trust classes").
    expect(pack.items.find((i) => i.id === mine)).toMatchObject({
      plane: 'history',
      trustClass: 'raw',
      provenance: { kind: 'lineage', id: mine },
    });
    const unit = pack.items.find((i) => i.plane === 'long-term');
    expect(unit).toMatchObject({ trustClass: 'approved', provenance: { kind: 'unit' } });
    expect(unit?.text).toContain('Fridays');
    expect(pack.excluded).toContainEqual(
      expect.objectContaining({ id: other, reason: 'other-thread' }),
    );
    // The draft is left out: not relevant enough to the query, or, when it is, as a draft.
    expect(pack.excluded).toContainEqual(
      expect.objectContaining({
        plane: 'long-term',
        reason: expect.stringMatching(/^(draft-or-deprecated|not-relevant)$/),
      }),
    );
    expect(pack.items.some((i) => i.text.includes('Mondays'))).toBe(false);
    expect(pack.budget.total).toBe(2000);
    expect(pack.budget.used).toBeLessThanOrEqual(2000);
    expect(pack.text).not.toBe('');
  });

  it('is deterministic for the same inputs', async () => {
    await writeBeads();
    await seedUnits();
    writeHistory();
    const request = { query: 'deploy bd-1', agentId: 'claude', threadKey: 'main' };
    const strip = (pack: Awaited<ReturnType<typeof retrieveContextPack>>) => ({
      ...pack,
      planes: pack.planes.map(({ ms: _ms, ...rest }) => rest),
    });
    const first = strip(await retrieveContextPack(request, sources()));
    const second = strip(await retrieveContextPack(request, sources()));
    expect(second).toEqual(first);
  });

  it('never exceeds the budget', async () => {
    await seedUnits();
    for (let i = 0; i < 8; i += 1)
      await cairn.add({ text: `Deploy fact number ${i}: ${'x '.repeat(40)}` });
    for (const budgetTokens of [0, 40, 90, 200, 500]) {
      const pack = await retrieveContextPack(
        { query: 'deploy', agentId: 'claude', budgetTokens },
        sources(),
      );
      expect(pack.budget.used).toBeLessThanOrEqual(budgetTokens);
      expect(pack.items.reduce((sum, i) => sum + i.tokenCost, 0)).toBeLessThanOrEqual(budgetTokens);
    }
  });

  it('reports planes switched off and planes not requested', async () => {
    const pack = await retrieveContextPack(
      { query: 'deploy', agentId: 'claude', planes: ['long-term'] },
      sources({ longTerm: 'units', history: 'off' }),
    );
    expect(pack.planes.map((p) => [p.plane, p.status, p.reason])).toEqual([
      ['planning', 'off', 'not requested'],
      ['history', 'off', 'not requested'],
      ['long-term', 'ok', undefined],
      ['documents', 'off', 'not requested'],
    ]);
    const off = await retrieveContextPack(
      { query: 'x', agentId: 'claude' },
      sources({ history: 'off' }),
    );
    expect(off.planes[1]).toMatchObject({ status: 'off', reason: 'switched off (memory.history)' });
    expect(off.planes[1]?.reason).toBeDefined();
  });

  it('leaves out what the planning and long-term switches turn off, and gives their share on', async () => {
    await writeBeads();
    await seedUnits();
    const request = { query: 'deploy script bd-1', agentId: 'claude' };
    const on = await retrieveContextPack(request, sources());
    expect(new Set(on.items.map((item) => item.plane))).toEqual(new Set(['planning', 'long-term']));
    const off = await retrieveContextPack(request, sources({ planning: 'off', longTerm: 'off' }));
    expect(off.items).toEqual([]);
    expect(off.planes.map((p) => [p.plane, p.status, p.reason])).toEqual([
      ['planning', 'off', 'switched off (memory.planning)'],
      ['history', 'ok', expect.any(String)],
      ['long-term', 'off', 'switched off (memory.longTerm)'],
      ['documents', 'off', 'no recall in this caller: it reads no documents'],
    ]);
    const share = (pack: typeof on, plane: string) =>
      pack.budget.planes.find((b) => b.plane === plane)?.share ?? 0;
    expect([share(off, 'planning'), share(off, 'long-term')]).toEqual([0, 0]);
    // An empty plane hands its share on too: the planes with items share the whole rest.
    expect([share(on, 'history'), share(on, 'documents')]).toEqual([0, 0]);
    expect(share(on, 'planning') + share(on, 'long-term')).toBe(
      on.budget.total - on.budget.reserved,
    );
  });

  it('says why history is empty without a thread', async () => {
    const pack = await retrieveContextPack({ query: 'deploy', agentId: 'claude' }, sources());
    expect(pack.planes[1]).toMatchObject({
      status: 'ok',
      reason: 'no thread given: summaries are read from one thread (run digests from all)',
    });
  });

  it('fails open: a plane that throws or runs late contributes nothing', async () => {
    await seedUnits();
    const pack = await retrieveContextPack(
      { query: 'deploy', agentId: 'claude' },
      {
        ...sources({ failOpen: true }),
        planeTimeoutMs: { history: 20 },
        gatherers: {
          planning: () => {
            throw new Error('bd crashed');
          },
          history: () => new Promise(() => {}),
        },
      },
    );
    expect(pack.planes[0]).toMatchObject({ status: 'failed', reason: 'threw: bd crashed' });
    expect(pack.planes[1]).toMatchObject({
      status: 'failed',
      reason: 'exceeded its time budget of 20 ms',
    });
    expect(pack.planes[2]?.status).toBe('ok');
    expect(pack.items.every((i) => i.plane === 'long-term')).toBe(true);
  });

  it('gives each plane the time budget the settings name (memory.planeTimeoutMs)', async () => {
    await seedUnits();
    const pack = await retrieveContextPack(
      { query: 'deploy', agentId: 'claude' },
      {
        ...sources({ failOpen: true, planeTimeoutMs: 30 }),
        gatherers: { history: () => new Promise(() => {}) },
      },
    );
    expect(pack.planes[1]).toMatchObject({
      status: 'failed',
      reason: 'exceeded its time budget of 30 ms',
    });
    expect(pack.planes[2]?.status).toBe('ok');
  });

  it('throws a typed error when fail-open is off', async () => {
    const failing = retrieveContextPack(
      { query: 'deploy', agentId: 'claude' },
      {
        ...sources({ failOpen: false }),
        gatherers: {
          history: () => {
            throw new Error('lineage locked');
          },
        },
      },
    );
    await expect(failing).rejects.toSatisfy(
      (error) =>
        CairnError.isInstance(error) &&
        error.code === 'BACKEND_UNAVAILABLE' &&
        error.details.plane === 'history',
    );
  });

  it('refuses a bad request with INVALID_INPUT', async () => {
    await expect(
      retrieveContextPack({ query: 'x', agentId: '', threadKey: 'Bad Key' }, sources()),
    ).rejects.toSatisfy((error) => CairnError.isInstance(error) && error.code === 'INVALID_INPUT');
    await expect(
      retrieveContextPack({ query: 'x', agentId: 'a', planningRef: '--db=/tmp/x' }, sources()),
    ).rejects.toSatisfy((error) => CairnError.isInstance(error) && error.code === 'INVALID_INPUT');
  });
});

function order(plane: string): number {
  return ['planning', 'history', 'long-term', 'documents'].indexOf(plane);
}
