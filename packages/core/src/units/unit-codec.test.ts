import { describe, expect, it } from 'vitest';
import { chunkDocument } from './chunker';
import { parseMemoryDocument, parseUnitAttributes, serializeUnit } from './unit-codec';

const unit = {
  memoryId: 'UNIT:0b0a3c1e-9f51-4b7e-9a55-3f3c2b1a0d9e',
  category: 'decision' as const,
  review: 'approved' as const,
  createdAt: '2026-04-22T10:00:00.000Z',
  updatedAt: '2026-04-22T10:00:00.000Z',
  source: 'mcp memory_add (session 42)',
  text: 'Use pnpm.\nEverywhere.',
};

describe('unit codec', () => {
  it('round-trips a unit, encoding unsafe attribute values', () => {
    const text = serializeUnit(unit);
    expect(text.split('\n')[0]).toContain('source=mcp%20memory_add%20(session%2042)');
    const parsed = parseMemoryDocument(`# Day\n\n${text}`, '2026-04-22.md');
    expect(parsed.issues).toEqual([]);
    expect(parsed.units).toEqual([{ ...unit, path: '2026-04-22.md', startLine: 3, endLine: 6 }]);
    expect(parsed.raw.map((r) => r.text)).toEqual(['# Day']);
  });

  it('rejects invalid attributes', () => {
    expect(
      parseUnitAttributes('<!-- cairn:memory:item:start memory_id=UNIT:x category=fact -->'),
    ).toBeUndefined();
    expect(
      parseUnitAttributes(serializeUnit({ ...unit, category: 'nope' as never }).split('\n')[0]!),
    ).toBeUndefined();
    expect(parseUnitAttributes(serializeUnit(unit).split('\n')[0]!)).toMatchObject({
      category: 'decision',
    });
  });

  it('chunks one unit as one chunk without markers, and never crosses ---- in raw text', () => {
    const raw = ['# Notes', '', 'alpha paragraph', '', '----', '', 'beta paragraph', ''].join('\n');
    const parsed = parseMemoryDocument(`${raw}\n${serializeUnit(unit)}`, '2026-04-22.md');
    const chunks = chunkDocument(parsed);
    const unitChunk = chunks.find((c) => c.kind === 'UNIT')!;
    expect(unitChunk).toMatchObject({
      text: 'Use pnpm.\nEverywhere.',
      memoryId: unit.memoryId,
      category: 'decision',
    });
    const rawTexts = chunks.filter((c) => c.kind === 'RAW').map((c) => c.text);
    expect(rawTexts).toEqual(['# Notes\n\nalpha paragraph', 'beta paragraph']);
    for (const chunk of chunks) expect(chunk.text).not.toContain('cairn:memory');
  });

  it('splits long raw sections into overlapping chunks of about 400 tokens', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) =>
      `Paragraph ${i} ${'word '.repeat(40)}`.trim(),
    );
    const chunks = chunkDocument(parseMemoryDocument(paragraphs.join('\n\n'), 'MEMORY.md'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(1700);
    expect(chunks[1]!.text.startsWith(chunks[0]!.text.split('\n\n').at(-1)!)).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(chunks.length);
  });

  it('hard-wraps a giant single line with unique chunk ids', () => {
    const chunks = chunkDocument(parseMemoryDocument('x'.repeat(5000), 'MEMORY.md'));
    expect(chunks.length).toBeGreaterThan(2);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(chunks.length);
  });
});
