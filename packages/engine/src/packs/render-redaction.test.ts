import { fakeSecretDump, leakedFakeSecrets } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { renderPack, renderPackItem } from './render-pack';

const item = (text: string, trustClass: 'approved' | 'raw' = 'approved') => ({
  id: 'u-1',
  plane: 'long-term' as const,
  text,
  source: 'unit',
  trustClass,
  provenance: { kind: 'unit' as const, id: 'u-1' },
});

describe('rendering redacts', () => {
  it('an item rendered by any caller never shows a secret, raw excerpts included', () => {
    for (const trust of ['approved', 'raw'] as const) {
      const rendered = renderPackItem(item(`Deploy notes\n${fakeSecretDump()}`, trust));
      expect(rendered).toContain('[REDACTED:');
      expect(leakedFakeSecrets(rendered)).toEqual([]);
    }
    expect(leakedFakeSecrets(renderPack([item(fakeSecretDump())]))).toEqual([]);
  });
});
