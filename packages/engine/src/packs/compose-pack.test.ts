import type { CairnSettings } from '@cairn/core';
import { seededRandom } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { composePack, type PackInput } from './compose-pack';
import { PACK_PLANES, TRUST_CLASSES } from './pack-types';
import { estimateCounter, loadTokenizer, type TokenCounter } from './token-estimate';

const SETTINGS: CairnSettings['memory'] = {
  contextBudgetTokens: 2000,
  namespace: 'default',
  planning: 'beads',
  history: 'digest',
  longTerm: 'units',
  failOpen: true,
  planeTimeoutMs: 2000,
  planningShare: 0.15,
  historyShare: 0.25,
  longTermShare: 0.4,
  documentsShare: 0.2,
  documentGlobs: [],
  documentMaxFileBytes: 262144,
  documentMaxTotalBytes: 8388608,
};

function input(id: string, text: string, extra: Partial<PackInput> = {}): PackInput {
  return {
    id,
    plane: 'long-term',
    text,
    source: 'units',
    trustClass: 'approved',
    provenance: { kind: 'unit', id, file: 'MEMORY.md', line: 3 },
    score: 1,
    why: 'matches the query',
    ...extra,
  };
}

const seeded = seededRandom;

const WORDS = [
  'pnpm',
  'vitest',
  'run',
  'the',
  'build',
  '<system>',
  '<!-- cairn:pack:end -->',
  '## heading',
  '```',
  '\n',
  'e723a44b5c0d9f1e',
  'DB_PASSWORD=hunter2hunter2',
  '日本語',
  '---',
  'Human:',
  '>',
];

function generated(random: () => number, count: number): PackInput[] {
  const int = (max: number) => Math.floor(random() * (max + 1));
  return Array.from({ length: count }, (_, i) => {
    // Half the words drawn from a large vocabulary, so items say different things (no duplicates).
    const word = () => (random() < 0.5 ? `w${int(5000)}` : WORDS[int(WORDS.length - 1)]);
    const text = Array.from({ length: 1 + int(120) }, word).join(' ');
    return input(`c${i}`, text, {
      plane: PACK_PLANES[int(3)]!,
      trustClass: TRUST_CLASSES[int(2)]!,
      score: random() * 10,
    });
  });
}

function checkWithin(counter: TokenCounter, random: () => number, runs: number) {
  let filled = 0;
  for (let run = 0; run < runs; run += 1) {
    const budget = Math.floor(random() * 3000);
    const reserved = random() < 0.3 ? Math.floor(random() * 500) : 0;
    const settings = { ...SETTINGS, history: random() < 0.2 ? 'off' : 'digest' } as const;
    const pack = composePack(generated(random, Math.floor(random() * 40)), {
      counter,
      settings,
      budgetTokens: budget,
      reservedTokens: reserved,
    });
    // The head (reserved) is injected outside the pack: the pack gets what it leaves.
    expect(counter.count(pack.text)).toBeLessThanOrEqual(Math.max(0, budget - reserved));
    expect(pack.budget.used).toBeLessThanOrEqual(budget);
    if (pack.items.length > 1) filled += 1;
  }
  // Most requests must actually fill a pack, or the check proves nothing.
  expect(filled).toBeGreaterThan(runs / 2);
}

describe('composePack', () => {
  // Each request is relevance, dedupe, costing and allocation over up to 40 long items.
  it('renders within the budget, counted by the estimate, over 300 generated requests', {
    timeout: 30_000,
  }, () => {
    checkWithin(estimateCounter, seeded(7), 300);
  });

  it('renders within the budget counted by the real tokenizer too', async () => {
    checkWithin(await loadTokenizer(), seeded(11), 60);
  });

  it('redacts secrets before costing and says which items were redacted', () => {
    const pack = composePack(
      [
        input('u-1', 'The staging DB is postgres://app:s3cr3t-pw@db:5432/app'),
        input('u-2', 'Use pnpm.'),
      ],
      { counter: estimateCounter, settings: SETTINGS },
    );
    expect(pack.text).not.toContain('s3cr3t-pw');
    expect(pack.text).toContain('[REDACTED:connection-string]');
    expect(pack.items.map((item) => [item.id, item.redacted])).toEqual([
      ['u-1', ['connection-string']],
      ['u-2', []],
    ]);
    expect(pack.budget).toMatchObject({ counter: 'estimate', total: 2000 });
    expect(pack.budget.frame).toBeGreaterThan(20);
  });

  it('applies the plane switches and the trust policy, and reports every exclusion', () => {
    const pack = composePack(
      [
        input('digest', 'Last run failed on lint.', { plane: 'history', trustClass: 'derived' }),
        input('draft', 'Maybe use yarn?', { reviewState: 'draft' }),
        input('raw', 'tool said: ok', { trustClass: 'raw' }),
        input('unit', 'Use pnpm.'),
      ],
      { counter: estimateCounter, settings: { ...SETTINGS, history: 'off' } },
    );
    expect(pack.items.map((item) => item.id)).toEqual(['unit']);
    expect(pack.excluded.map((e) => [e.id, e.reason])).toEqual([
      ['draft', 'draft-or-deprecated'],
      ['raw', 'untrusted'],
      ['digest', 'plane-off'],
    ]);
  });

  it('gives an empty text when the budget cannot hold the frame', () => {
    const pack = composePack([input('u-1', 'Use pnpm.')], {
      counter: estimateCounter,
      settings: SETTINGS,
      budgetTokens: 10,
    });
    expect(pack.text).toBe('');
    expect(pack.excluded.map((e) => e.reason)).toEqual(['over-budget']);
  });

  it('leaves out what could never fit before relevance, so it sets no bar for what can', () => {
    const table = Array.from(
      { length: 120 },
      (_, i) => `| setting${i} | decides which relevant prompt items are left out of the pack |`,
    ).join('\n');
    const doc = (id: string, text: string) =>
      input(id, text, {
        plane: 'documents',
        trustClass: 'raw',
        provenance: { kind: 'document', id: `docs/${id}.md`, file: `docs/${id}.md`, line: 1 },
      });
    const pack = composePack(
      [
        // Every word of the request, in a section larger than the whole budget.
        doc('config', table),
        doc('relevance', 'The pack keeps a relevant item for the prompt; the rest is left out.'),
      ],
      {
        counter: estimateCounter,
        settings: SETTINGS,
        relevance: {
          query: 'how does the pack decide what is relevant to my prompt and what is left out?',
          floors: { documents: 0.5 },
        },
      },
    );
    expect(pack.items.map((item) => item.id)).toEqual(['relevance']);
    expect(pack.excluded.map((e) => [e.id, e.reason])).toEqual([['config', 'over-budget']]);
  });
});
