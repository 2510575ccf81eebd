import { describe, expect, it } from 'vitest';
import { ESTIMATE_SAFETY_FACTOR, estimateCounter, loadTokenizer } from './token-counter';
import { estimateTokenCount } from './token-estimate';

/** A few texts of each kind a pack carries: units, tool output, Markdown. */
const SAMPLES = [
  'We decided to use pnpm workspaces; tests run with vitest 4 and every package builds with tsup.',
  'Caroline: I went to the LGBTQ support group yesterday and it was so powerful, honestly.',
  'The staging database lives on db-staging-03 and needs the VPN; ask Priya for access.',
  [
    ' FAIL  src/session/token-store.test.ts > refreshToken > retries once on 401',
    'AssertionError: expected 2 to be 1 // Object.is equality',
    '    at /home/dev/project/src/session/token-store.test.ts:48:27',
    '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
    '',
    ' Test Files  1 failed | 41 passed (42)',
    '      Tests  1 failed | 318 passed (319)',
  ].join('\n'),
  [
    'diff --git a/src/config.ts b/src/config.ts',
    '@@ -12,7 +12,8 @@ export function loadConfig(path: string): Config {',
    '-  const raw = readFileSync(path);',
    "+  const raw = readFileSync(path, 'utf8');",
    '+  if (raw.trim() === "") return DEFAULT_CONFIG;',
    '   return parseConfig(JSON.parse(raw));',
  ].join('\n'),
  [
    '## Budgets',
    '',
    'One budget covers everything Cairn injects in a turn. Per-plane shares are',
    'settings (`CAIRN_MEMORY_SHARE_PLANNING`, ...), and unused share flows to the',
    'next plane. See [CONFIG.md](CONFIG.md) for the table.',
    '',
    '| Setting | Default |',
    '| --- | --- |',
    '| `memory.contextBudgetTokens` | `2000` |',
  ].join('\n'),
];

describe('token counting', () => {
  it('counts with the o200k_base tokenizer, loaded once on first use', async () => {
    const first = loadTokenizer();
    expect(loadTokenizer()).toBe(first);
    const tokenizer = await first;
    expect(tokenizer.name).toBe('o200k_base');
    expect(tokenizer.count('Use pnpm for installs; tests run with vitest.')).toBe(12);
    expect(tokenizer.count('')).toBe(0);
  });

  it('counts text that spells a special token instead of refusing it', async () => {
    const tokenizer = await loadTokenizer();
    expect(tokenizer.count('ignore this <|endoftext|><|im_start|>system')).toBeGreaterThan(5);
  });

  it('estimates within 5% of the tokenizer over units, tool output and Markdown', async () => {
    const tokenizer = await loadTokenizer();
    const exact = SAMPLES.reduce((sum, text) => sum + tokenizer.count(text), 0);
    const estimate = SAMPLES.reduce((sum, text) => sum + estimateTokenCount(text), 0);
    expect(Math.abs(estimate / exact - 1)).toBeLessThan(0.05);
  });

  it('budgets with the estimate raised by its safety factor', () => {
    for (const text of ['', ...SAMPLES, 'x'.repeat(300)]) {
      expect(estimateCounter.count(text)).toBe(
        Math.ceil(estimateTokenCount(text) * ESTIMATE_SAFETY_FACTOR),
      );
    }
  });

  it('gives the same count for a text seen again, after many other texts too', () => {
    const first = SAMPLES.map((text) => estimateCounter.count(text));
    // About 2M characters of other texts: more than the counts kept.
    for (let i = 0; i < 400; i += 1) estimateCounter.count(`${i} ${'lorem ipsum '.repeat(400)}`);
    expect(SAMPLES.map((text) => estimateCounter.count(text))).toEqual(first);
    expect(
      SAMPLES.map((text) => Math.ceil(estimateTokenCount(text) * ESTIMATE_SAFETY_FACTOR)),
    ).toEqual(first);
  });

  it('stays linear on adversarial inputs (every piece is consumed or fails within a bounded look)', () => {
    const size = 200_000;
    for (const text of [
      '1'.repeat(size),
      'A'.repeat(size),
      ' '.repeat(size),
      'a1'.repeat(size / 2),
      '\u65e5'.repeat(size),
      '-+'.repeat(size / 2),
    ]) {
      expect(estimateTokenCount(text)).toBeGreaterThan(0);
    }
  });

  it('estimates by pieces: words, digit groups, punctuation, breaks, non-ASCII', () => {
    expect(estimateTokenCount('')).toBe(0);
    expect(estimateTokenCount('word')).toBe(1);
    expect(estimateTokenCount('internationalization')).toBe(3);
    expect(estimateTokenCount('1234567')).toBe(3);
    expect(estimateTokenCount('日本語')).toBe(3);
    // A commit id barely merges: close to one token a character, as the tokenizer counts it.
    expect(estimateTokenCount('e723a44b5c0d9f1e2a3b4c5d6e7f8a9b0c1d2e3f')).toBe(34);
    expect(estimateTokenCount('-'.repeat(64))).toBe(5);
    // Far fewer tokens than characters for prose; a long text costs in proportion.
    const line = 'the quick brown fox jumps over the lazy dog\n';
    expect(estimateTokenCount(line.repeat(1000))).toBeGreaterThan(
      estimateTokenCount(line.repeat(100)) * 9.9,
    );
  });
});
