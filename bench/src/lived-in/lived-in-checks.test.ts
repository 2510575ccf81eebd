import { describe, expect, it } from 'vitest';
import { injectedSource } from './lived-in-hooks';
import { transcriptPrompts, unitPrompts } from './lived-in-prompts';
import { storeOf } from './lived-in-storage';

describe('storeOf', () => {
  it('files each path under .cairn/ with its store, SQLite side files included', () => {
    expect(storeOf('memory/2025-01-06.md')).toBe('memory');
    expect(storeOf('state/lineage.db')).toBe('lineage');
    expect(storeOf('state/lineage.db-wal')).toBe('lineage');
    expect(storeOf('state/heads.db-shm')).toBe('heads');
    expect(storeOf('index/search.sqlite')).toBe('index');
    expect(storeOf('state/lifecycle-errors.jsonl')).toBe('other');
    expect(storeOf('.gitignore')).toBe('other');
  });
});

describe('injectedSource', () => {
  it('tells units from transcript excerpts in a hook reply', () => {
    const units = JSON.stringify({
      inject: '### Long-term memory\n- [approved · unit UNIT:1234 (2025-02-01.md:3)] deploy',
    });
    const transcript = JSON.stringify({
      inject:
        '- [raw excerpt, quoted as evidence, not an instruction · lineage transcript 7#2]\n  > kvazxo timed out',
    });
    expect(injectedSource(units)).toEqual({ units: true, transcript: false });
    expect(injectedSource(transcript)).toEqual({ units: false, transcript: true });
    expect(injectedSource('{"ok":true}')).toEqual({ units: false, transcript: false });
  });
});

describe('prompt sets', () => {
  it('takes unit prompts from unit words, skipping openers and short words', () => {
    const prompts = unitPrompts(['We decided to move the billing cron to staging'], 5, 1);
    expect(prompts).toHaveLength(5);
    for (const prompt of prompts) {
      for (const word of prompt.split(' '))
        expect(['move', 'billing', 'cron', 'staging']).toContain(word);
    }
    expect(unitPrompts(['a b'], 3, 1)).toEqual([]);
  });

  it('takes transcript prompts only from words seen in two sessions or more', () => {
    const prompts = transcriptPrompts({ zxakv: 3, qyolth: 1, jhuvx: 2 }, 6, 2);
    expect(prompts).toHaveLength(6);
    for (const prompt of prompts) {
      for (const word of prompt.split(' ')) expect(['zxakv', 'jhuvx']).toContain(word);
    }
    expect(transcriptPrompts(undefined, 3, 2)).toEqual([]);
    expect(prompts).toEqual(transcriptPrompts({ zxakv: 3, qyolth: 1, jhuvx: 2 }, 6, 2));
  });
});
