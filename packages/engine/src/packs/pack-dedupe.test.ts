import { describe, expect, it } from 'vitest';
import { type DedupableItem, dedupeItems, FactLedger } from './pack-dedupe';

const item = (id: string, text: string, extra: Partial<DedupableItem> = {}): DedupableItem => ({
  id,
  plane: 'history',
  text,
  trustClass: 'derived',
  ...extra,
});

describe('nothing twice', () => {
  it('says "cap Retry-After at backoffLimit" once across heads, summary, digest and units', () => {
    // The reproduction of the issue: one fact in five places of one session-start injection.
    const fact = 'cap Retry-After at backoffLimit';
    const result = dedupeItems([
      item('head:thread:t', `Status: ${fact}\nNext action: add jitter\nDecisions:\n- ${fact}`),
      item(
        'head:memory',
        `Active threads:\n- \`ky.main\`: ${fact}\nNext actions:\n- \`ky.main\`: add jitter`,
      ),
      item('node:1', `## Decisions\n- ${fact}.`, { trustClass: 'raw' }),
      item('run:1', `Run s-1 (2026-05-01): Fix the retry tests\nDecision: ${fact}`),
      item('UNIT:1', `We ${fact}.`, { plane: 'long-term', trustClass: 'approved' }),
    ]);
    const said = [...result.kept.map((i) => i.text)].join('\n');
    expect(said.split(fact)).toHaveLength(2);
    expect(result.kept.map((i) => i.id)).toEqual(['head:thread:t', 'run:1']);
    expect(result.kept[1]!.text).toBe('Run s-1 (2026-05-01): Fix the retry tests');
    expect(result.excluded.map((e) => [e.id, e.reason, e.duplicateOf])).toEqual([
      ['head:memory', 'duplicate', 'head:thread:t'],
      ['node:1', 'duplicate', 'head:thread:t'],
      ['UNIT:1', 'duplicate', 'head:thread:t'],
    ]);
  });

  it('leaves out a unit the memory head cites by id, and keeps short facts of different runs', () => {
    const ledger = new FactLedger();
    ledger.cite('- Use pnpm (`UNIT:11111111-1111-4111-8111-111111111111`)', 'head:memory');
    const result = dedupeItems(
      [
        item('UNIT:11111111-1111-4111-8111-111111111111', 'Use pnpm.', { plane: 'long-term' }),
        item('run:a', 'Run a: build\nOutcome: succeeded'),
        item('run:b', 'Run b: lint\nOutcome: succeeded'),
      ],
      ledger,
    );
    expect(result.kept.map((i) => i.id)).toEqual(['run:a', 'run:b']);
    expect(result.kept[1]!.text).toContain('Outcome: succeeded');
  });

  it('keeps a code block whole, whatever it repeats', () => {
    const block = '```sh\nvault read ops/deploy-key now please\n```';
    const result = dedupeItems([
      item('UNIT:1', 'vault read ops/deploy-key now please', { trustClass: 'approved' }),
      item('doc', `Deploy:\n${block}`, { plane: 'documents', trustClass: 'raw' }),
    ]);
    expect(result.kept.map((i) => i.text)).toEqual([
      'vault read ops/deploy-key now please',
      `Deploy:\n${block}`,
    ]);
  });

  it("leaves out a digest whose opening says the thread head's status again: the rest are its details", () => {
    const status = 'receipts keep the pack without its rendered text';
    const result = dedupeItems([
      item(
        'head:thread:t',
        `Status: We decided that ${status}.\nNext action: add the last command`,
      ),
      item(
        'run:2',
        `Run s-2 (2026-05-01): We decided that ${status}.\nOutcome: unknown (no tool ran, and the harness gave no answer)`,
      ),
      item(
        'head:memory',
        `Active threads:\n- \`t\`: ${status}\nDurable constraints:\n- never run the whole suite`,
      ),
    ]);
    expect(result.kept.map((i) => i.id)).toEqual(['head:thread:t', 'head:memory']);
    expect(result.kept[1]!.text).toBe('Durable constraints:\n- never run the whole suite');
    expect(result.excluded.map((e) => [e.id, e.duplicateOf])).toEqual([['run:2', 'head:thread:t']]);
  });

  it('quotes a document section whole: a line it shares with an earlier item stays in its prose', () => {
    const section =
      'Run `cairn pack --last` after a prompt\nto see what the hook injected and why an item was left out,\nthen compare it with the profile.';
    const result = dedupeItems([
      item('UNIT:1', 'to see what the hook injected and why an item was left out', {
        plane: 'long-term',
        trustClass: 'approved',
      }),
      item('DOC:a', section, { plane: 'documents', trustClass: 'raw' }),
    ]);
    expect(result.kept.map((i) => i.text)).toEqual([
      'to see what the hook injected and why an item was left out',
      section,
    ]);
  });

  it('keeps a unit whose subject a head only mentions: near-duplicate content, not a shared subject', () => {
    // The reproduction of the brief: a unit dropped as a "duplicate" of heads that name its words.
    const unit = item(
      'UNIT:1',
      'Retries cap the Retry-After header at backoffLimit so a slow server cannot stall the client.',
      { plane: 'long-term', trustClass: 'approved' },
    );
    const result = dedupeItems([
      item(
        'head:thread:t',
        'Status: why does the client not wait the full Retry-After time?\nNext action: read the retry options',
      ),
      item(
        'head:memory',
        'Active threads:\n- `t1`: is the Retry-After delay capped for slow servers?\n- `t2`: the client stalls when a header is missing\n- `t3`: backoffLimit moved to the retry options',
      ),
      unit,
    ]);
    expect(result.kept.map((i) => i.id)).toEqual(['head:thread:t', 'head:memory', 'UNIT:1']);
    expect(result.kept[2]!.text).toBe(unit.text);
  });

  it("still leaves out a line that one earlier item's two facts say together", () => {
    const result = dedupeItems([
      item(
        'head:thread:t',
        'Status: receipts keep the pack without its text\nNext action: add the last command',
      ),
      item(
        'run:1',
        'Run s-1 (2026-05-01): receipts keep the pack without its text; add the last command\nOutcome: succeeded',
      ),
      item('head:memory', 'Active threads:\n- `t`: which hook writes the receipts?'),
      item('run:2', 'Run s-2 (2026-05-02): which hook writes the receipts?'),
    ]);
    expect(result.kept.map((i) => i.id)).toEqual(['head:thread:t', 'head:memory']);
    expect(result.excluded.map((e) => [e.id, e.duplicateOf])).toEqual([
      ['run:1', 'head:thread:t'],
      ['run:2', 'head:memory'],
    ]);
  });
});
