import { seededRandom } from '@cairn/testkit';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globMatcher } from './document-source';

/*
 * The documents globs keep picomatch's syntax, matched in linear time by
 * compile-glob.ts. picomatch, the maintained matcher, is the oracle here:
 * over generated globs of that syntax and paths built from the same
 * pieces, both must answer alike.
 */

const random = seededRandom;

const pick = <T>(next: () => number, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)]!;

const NAME_PIECES = ['readme', 'README', 'docs', 'Docs', 'a', 'b', 'adr', '0001', 'x-y', '.hidden'];
const EXTENSIONS = ['', '.md', '.MD', '.txt', '.markdown'];
// Negated classes, and a `**` inside a segment, read as bash and git read them (document-source.ts).
const GLOB_PIECES = [
  '*',
  '?',
  '[0-9]',
  '[a-c]',
  '[x-z]',
  '{a,b}',
  '{docs,adr}',
  'a',
  'docs',
  'readme',
];

function name(next: () => number): string {
  return `${pick(next, NAME_PIECES)}${pick(next, EXTENSIONS)}`;
}

function path(next: () => number): string {
  const depth = 1 + Math.floor(next() * 4);
  return Array.from({ length: depth }, () => name(next)).join('/');
}

function segment(next: () => number): string {
  const parts = 1 + Math.floor(next() * 3);
  const text = Array.from({ length: parts }, () => pick(next, GLOB_PIECES)).join('');
  // Stars side by side are one star in a segment.
  return `${text}${pick(next, EXTENSIONS)}`.replace(/\*+/g, '*');
}

/** A glob of one to three segments; `**` as a segment of its own, never the last (see document-source.ts). */
function glob(next: () => number): string {
  const depth = 1 + Math.floor(next() * 3);
  return Array.from({ length: depth }, (_, index) =>
    index < depth - 1 && next() < 0.25 ? '**' : segment(next),
  ).join('/');
}

describe('documents globs against picomatch', () => {
  it('answer as picomatch does, letter case ignored, over generated globs and paths', () => {
    const next = random(20261129);
    const paths = Array.from({ length: 80 }, () => path(next));
    const differ: string[] = [];
    for (let round = 0; round < 400; round += 1) {
      const pattern = glob(next);
      const oracle = picomatch(pattern, { nocase: true });
      const ours = globMatcher(pattern);
      for (const candidate of paths) {
        if (oracle(candidate) !== ours.test(candidate)) differ.push(`${pattern} ~ ${candidate}`);
      }
    }
    expect(differ.slice(0, 10)).toEqual([]);
  });
});
