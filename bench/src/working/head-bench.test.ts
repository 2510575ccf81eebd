import { describe, expect, it } from 'vitest';
import { createTextGenerator } from '../scale/text-generator';
import { measureHeadRegion, sessionPrompt } from './head-bench';

describe('measureHeadRegion', () => {
  it('counts tokens as chars / 4 rounded up, and the threads listed', () => {
    const region = [
      '### Active threads',
      '- `topic-2`: shipped the parser',
      '- `topic-1`: no summary yet',
      '',
      '### Next actions',
      '- `topic-2`: wire the hook',
      '',
      '_Cairn head, rendered 2025-01-01T00:00:00.000Z._',
    ].join('\n');
    expect(measureHeadRegion(region, 1200)).toEqual({
      chars: region.length,
      tokens: Math.ceil(region.length / 4),
      budgetTokens: 1200,
      lines: 8,
      threadsListed: 2,
    });
  });

  it('reads an empty region as empty', () => {
    expect(measureHeadRegion('', 1200)).toMatchObject({
      chars: 0,
      tokens: 0,
      lines: 0,
      threadsListed: 0,
    });
  });
});

describe('sessionPrompt', () => {
  it('is seeded, and phrases a decision and a next step', () => {
    const first = sessionPrompt(createTextGenerator(7));
    expect(sessionPrompt(createTextGenerator(7))).toBe(first);
    expect(first).toMatch(/Decision: [A-Z].*\. Next step: [A-Z].*\./);
  });
});
