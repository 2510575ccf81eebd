import { describe, expect, it } from 'vitest';
import { loadFailureCorpus, parseLabels } from './failure-corpus';

describe('the failure corpus', () => {
  it('holds at least 300 captured outputs, each case in two settings or more', async () => {
    const corpus = await loadFailureCorpus();
    const captured = corpus.filter((fixture) => fixture.source === 'captured');
    expect(captured.length).toBeGreaterThanOrEqual(300);
    const perCase = new Map<string, number>();
    for (const f of corpus)
      perCase.set(`${f.ecosystem}/${f.case}`, (perCase.get(`${f.ecosystem}/${f.case}`) ?? 0) + 1);
    for (const [name, count] of perCase) expect(count, name).toBeGreaterThanOrEqual(2);
    // A capture that printed nothing proves nothing.
    for (const f of corpus) expect(f.text.trim(), f.file).not.toBe('');
  });

  it('refuses a label line without its fix', () => {
    const line = JSON.stringify({
      file: 'a.txt',
      ecosystem: 'x',
      case: 'c',
      tool: 't',
      command: 'c',
      source: 'captured',
    });
    expect(() => parseLabels(line, 'labels.jsonl')).toThrow(/labels\.jsonl:1/);
  });
});
