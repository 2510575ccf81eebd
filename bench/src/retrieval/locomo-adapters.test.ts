import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSearchIndexes } from '@cairn/backend-file';
import { openCairn } from '@cairn/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildConversationMemory } from '../locomo/cairn-memory';
import type { LocomoConversation } from '../locomo/dataset';
import { ENGINE_ADAPTERS, openEngineAdapter } from './engine-adapters';
import { type AdapterTally, createTally, runEngineAdapters, tallyFigures } from './locomo-adapters';

const conversation: LocomoConversation = {
  id: 'conv-test',
  droppedEvidence: 0,
  sessions: [
    {
      index: 1,
      dateText: '1:56 pm on 8 May, 2023',
      date: new Date(Date.UTC(2023, 4, 8, 13, 56)),
      turns: [
        { speaker: 'Caroline', dia_id: 'D1:1', text: 'I went to a pottery class yesterday.' },
        { speaker: 'Melanie', dia_id: 'D1:2', text: 'We are camping at the lake next week.' },
      ],
    },
  ],
  questions: [
    { question: 'What class did Caroline go to?', category: 4, evidence: ['D1:1'] },
    { question: 'Where is Melanie camping?', category: 4, evidence: ['D1:2'] },
  ],
};

describe('LoCoMo adapters through the engine', () => {
  let rootDir: string;

  beforeEach(async () => {
    rootDir = await mkdtemp(join(tmpdir(), 'cairn-bench-adapters-'));
  });

  afterEach(async () => {
    closeSearchIndexes();
    await rm(rootDir, { recursive: true, force: true });
  });

  it('scores the file adapters and reports a backend the engine cannot resolve', async () => {
    const memory = await buildConversationMemory(rootDir, conversation);
    const tallies = new Map<string, AdapterTally>();
    const specs = [
      ...ENGINE_ADAPTERS.filter((spec) => spec.backend === 'file'),
      { id: 'nope', label: 'missing', backend: 'no-such-backend', env: {} },
    ];
    await runEngineAdapters(rootDir, memory, conversation.questions, tallies, 10, specs);
    const keyword = tallyFigures(tallies.get('file-keyword')!, 2);
    expect(keyword.available).toBe(true);
    expect(keyword.summary!.all).toMatchObject({ questions: 2, recall10: 1 });
    expect(keyword.search!.n).toBe(2);
    expect(tallyFigures(tallies.get('file-hybrid')!, 2).summary!.all!.recall10).toBe(1);
    const missing = tallyFigures(tallies.get('nope')!, 2);
    expect(missing).toMatchObject({ available: false });
    expect(missing.reason).toMatch(/no-such-backend/);
    // The workspace is untouched by the searches: both turns are still units.
    const units = await (
      await openCairn(rootDir, {
        env: {},
        homeDir: join(rootDir, '.bench-home'),
      })
    ).list();
    expect(units.filter((unit) => unit.kind === 'UNIT')).toHaveLength(2);
  });

  it('opens an optional backend from the bench when its package exports a factory', async () => {
    await buildConversationMemory(rootDir, conversation);
    const lancedb = ENGINE_ADAPTERS.find((spec) => spec.id === 'lancedb')!;
    const opened = await openEngineAdapter(rootDir, lancedb, { homeDir: join(rootDir, 'h') });
    expect(opened.ok, opened.ok ? '' : opened.reason).toBe(true);
    if (!opened.ok) return;
    try {
      const hits = await opened.adapter.search('pottery class', 10);
      expect(hits[0]?.snippet).toMatch(/pottery/);
    } finally {
      await opened.adapter.close();
    }
  });

  it('marks an adapter that failed on any conversation as not measured', () => {
    const tally = createTally({ id: 'x', label: 'x' });
    tally.scored.push({ category: 1, scores: { hit1: 1, recall5: 1, recall10: 1, ndcg5: 1 } });
    tally.reason = 'failed: boom';
    expect(tallyFigures(tally, 1)).toMatchObject({ available: false, reason: 'failed: boom' });
    expect(tallyFigures(createTally({ id: 'y', label: 'y' }), 1)).toMatchObject({
      available: false,
    });
  });
});
