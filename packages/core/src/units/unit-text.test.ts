import { describe, expect, it } from 'vitest';
import {
  containsBinary,
  containsMarker,
  duplicateKey,
  escapeMarkers,
  inferCategory,
  isDuplicateText,
  NEAR_DUPLICATE_MIN_WORDS,
  NEAR_DUPLICATE_THRESHOLD,
  normalizeUnitText,
} from './unit-text';

describe('category inference (first matching rule wins)', () => {
  it.each([
    ['I prefer tabs over spaces.', 'preference'],
    ['The user likes short answers.', 'preference'],
    ['Always use pnpm, never npm.', 'preference'],
    ['Please never run migrations on Fridays.', 'preference'],
    ['We decided to move the API to Fastify.', 'decision'],
    ['Use pnpm for dependency management in this workspace.', 'decision'],
    ['Going with Postgres 16 for the new service.', 'decision'],
    ['We switched to Vitest last sprint.', 'decision'],
    ['Ana is our maintainer for the billing service.', 'entity'],
    ['Contact ops at ops@example.com for access.', 'entity'],
    ['The dashboard lives at https://grafana.internal.', 'entity'],
    ['The build takes 4 minutes on CI.', 'fact'],
    ['The staging cluster runs Kubernetes.', 'fact'],
    ['Node 20 is required.', 'fact'],
    ['Remember the blue mug.', 'other'],
    ['Hello there', 'other'],
  ])('%s -> %s', (text, category) => {
    expect(inferCategory(text)).toBe(category);
  });
});

describe('normalizeUnitText', () => {
  it('trims, normalizes line endings and NFC, and applies the ---- rule', () => {
    expect(normalizeUnitText('  e\u0301\r\nA ----\r\n----\r\n  ---- \n')).toBe(
      'é\nA ----\n---\n---',
    );
  });
});

describe('duplicate rule', () => {
  it('matches equal keys and near-equal long texts, not short overlaps', () => {
    expect(duplicateKey('Hello, World!')).toBe('hello world');
    expect(isDuplicateText('Deploy on Tuesdays.', 'deploy on tuesdays')).toBe(true);
    expect(isDuplicateText('Deploy on Tuesdays', 'Deploy on Thursdays')).toBe(false);
    expect(
      isDuplicateText(
        'The staging database lives on host db-stage-2 in Frankfurt',
        'Note: the staging database lives on host db-stage-2 in Frankfurt',
      ),
    ).toBe(true);
    expect(
      isDuplicateText(
        'The staging database lives on host db-stage-2 in Frankfurt',
        'The production database lives on host db-prod-1 in Dublin',
      ),
    ).toBe(false);
    expect(isDuplicateText('', '')).toBe(false);
  });
});

describe('markers and binary text', () => {
  it('sees every Cairn marker comment, in any spacing or case', () => {
    for (const text of [
      'a <!-- cairn:memory:item:end --> b',
      '<!-- cairn:head:end -->',
      'x <!--cairn:thread-head:start-->',
      '<!--   CAIRN:future -->',
    ]) {
      expect(containsMarker(text)).toBe(true);
    }
    expect(containsMarker('<!-- a plain comment --> and cairn: a word')).toBe(false);
  });

  it('escapes markers so they no longer match, idempotently, keeping the rest', () => {
    const text = 'keep <!-- cairn:head:end --> and <!--cairn:thread-head:start--> here';
    const escaped = escapeMarkers(text);
    expect(containsMarker(escaped)).toBe(false);
    expect(escapeMarkers(escaped)).toBe(escaped);
    expect(escaped.replaceAll('\u200b', '')).toBe(text);
    expect(escapeMarkers('no markers')).toBe('no markers');
  });

  it('flags NUL, U+FFFD and lone surrogates, not other text', () => {
    expect(containsBinary('a\u0000b')).toBe(true);
    expect(containsBinary(Buffer.from([0x61, 0xff, 0x62]).toString('utf8'))).toBe(true);
    expect(containsBinary('lone \uD800 high')).toBe(true);
    expect(containsBinary('lone \uDC00 low')).toBe(true);
    expect(containsBinary('emoji 😀, accents é, CJK 漢字, tab\t')).toBe(false);
  });
});

describe('the duplicate rule over signatures', () => {
  /** The rule as written in docs/UNITS.md, computed the long way. */
  function byTheBook(a: string, b: string): boolean {
    const [keyA, keyB] = [duplicateKey(a), duplicateKey(b)];
    if (keyA === keyB) return keyA.length > 0;
    const [wordsA, wordsB] = [new Set(keyA.split(' ')), new Set(keyB.split(' '))];
    if (Math.min(wordsA.size, wordsB.size) < NEAR_DUPLICATE_MIN_WORDS) return false;
    const shared = [...wordsA].filter((word) => wordsB.has(word)).length;
    return shared / (wordsA.size + wordsB.size - shared) >= NEAR_DUPLICATE_THRESHOLD;
  }

  it('decides every pair as the rule does, the size shortcut included', () => {
    const vocabulary = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(
      ' ',
    );
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const sentence = () =>
      Array.from(
        { length: 1 + Math.floor(next() * 14) },
        () => vocabulary[Math.floor(next() * vocabulary.length)],
      ).join(' ');
    let duplicates = 0;
    for (let i = 0; i < 5000; i += 1) {
      const a = sentence();
      // Half the pairs are near misses: one word of a changed or added.
      const b = i % 2 ? sentence() : `${a} ${vocabulary[i % vocabulary.length]}`;
      expect(isDuplicateText(a, b), `${a} | ${b}`).toBe(byTheBook(a, b));
      if (byTheBook(a, b)) duplicates += 1;
    }
    expect(duplicates).toBeGreaterThan(50);
  });
});
