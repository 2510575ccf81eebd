import { seededRandom } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import { ALL_CASES, native, RUN_A, type Volatile } from './testing/signature-corpus';

const CASES = ALL_CASES;

/** mulberry32: a small seeded generator, so a failure replays. */
function seeded(seed: number) {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = (chars: string, length: number) =>
    Array.from({ length }, () => chars[int(0, chars.length - 1)]).join('');
  return { int, pick };
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const NAME = `${LOWER}0123456789-_.`;
const HEX = '0123456789abcdef';

function randomRun(random: ReturnType<typeof seeded>): Volatile {
  const { int, pick } = random;
  const segments = Array.from(
    { length: int(1, 6) },
    () => `${pick(LOWER, 1)}${pick(NAME, int(0, 14))}`,
  );
  const home = `/${['home', 'Users', 'var/lib'][int(0, 2)]}/${pick(LOWER, int(2, 9))}`;
  const pid = int(100, 999_999);
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    root: `${home}/${segments.join('/')}`,
    home,
    line: int(1, 99_999),
    col: int(1, 400),
    line2: int(1, 99_999),
    ms: int(0, 999_999),
    port: int(1, 65_535),
    // A hash with no digit ("deadbeef") reads as a word; real ones almost always have one.
    sha: `${pick(HEX, int(6, 39))}${int(0, 9)}`,
    pid,
    tmp: `tmp-${pid}-${pick(`${LOWER}0123456789`, int(6, 12))}`,
    uuid: [8, 4, 4, 4, 12].map((length) => pick(HEX, length)).join('-'),
    time: `${int(2000, 2099)}-${two(int(1, 12))}-${two(int(1, 28))}T${two(int(0, 23))}:${two(int(0, 59))}:${two(int(0, 59))}.${int(100, 999)}Z`,
    addr: `0x${pick(HEX, int(6, 16))}`,
  };
}

describe('errorSignature properties', () => {
  it('random paths, numbers, hashes, ports, times and ids never change a signature', () => {
    const random = seeded(20261125);
    for (const c of CASES) {
      const context = { tool: 'Bash', command: c.command };
      const expected = errorSignature(c.text(RUN_A), context);
      for (let round = 0; round < 40; round += 1) {
        const run = randomRun(random);
        const got = errorSignature(c.text(run), context);
        expect(got.normalized, `${c.name} with ${JSON.stringify(run)}`).toBe(expected.normalized);
      }
    }
  });

  it('is deterministic: the same text gives the same signature', () => {
    const text = native.goPanic.text(RUN_A);
    expect(errorSignature(text)).toEqual(errorSignature(text));
  });
});

describe('errorSignature on hostile input', () => {
  const inputs: [string, string][] = [
    ['one long path-like run', 'a/'.repeat(300_000)],
    ['digits', '0'.repeat(600_000)],
    ['dots and letters', 'a.'.repeat(300_000)],
    ['colons and digits', ':1'.repeat(300_000)],
    ['hex without end', `0x${'f'.repeat(500_000)}`],
    ['url without end', `https://${'a'.repeat(500_000)}`],
    ['error words', 'Error: '.repeat(100_000)],
    ['many short lines', 'error[E0308]: x\n'.repeat(100_000)],
    ['stack frames', '    at f (/a/b.js:1:2)\n'.repeat(50_000)],
    [
      'maven goal prefix',
      `[ERROR] Failed to execute goal a:b:c:d ${'x'.repeat(900)}\n`.repeat(2_000),
    ],
    ['mixed ids', `${'a1b2c3-'.repeat(100_000)}`],
    ['spaces', ' '.repeat(600_000)],
    ['newlines', '\n'.repeat(600_000)],
    ['long tally-like lines', `=${' 1'.repeat(499)}\n`.repeat(500)],
    ['long shell-like lines', `sh: ${'x: '.repeat(330)}\n`.repeat(500)],
  ];

  it.each(inputs)('%s: returns a signature', (_name, text) => {
    const result = errorSignature(text, { tool: 'Bash', command: 'x '.repeat(10_000) });
    expect(result.signature).toMatch(/^[0-9a-f]{16}$/);
    expect(result.normalized.length).toBeLessThan(1000);
  });
});
