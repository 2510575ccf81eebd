import { describe, expect, it } from 'vitest';
import { scrubVolatile } from './scrub-volatile';

describe('scrubVolatile', () => {
  it.each([
    ['/home/u/p/src/x.js:12:34 failed', '<path> failed'],
    ['at foo (C:\\Users\\me\\proj\\a.js:3)', 'at foo (<path>)'],
    ['see ~/x/y and ../z/w.ts:4:5', 'see <path> and <path>'],
    ['src/a.ts(12,5): error TS2345', '<path>(<n>,<n>): error TS2345'],
    ["from 'src/orders.test.ts'", "from '<path>'"],
    ['main.go:12:5: undefined: foo', '<path>: undefined: foo'],
    ['listen EADDRINUSE :::3000', 'listen EADDRINUSE :::<n>'],
    ['2026-11-25T17:45:00.123Z took 123ms', '<time> took <dur>'],
    ['at 12:01:02 pid 4567', 'at <time> pid <n>'],
    ['ptr 0x7ffd1234 commit 3f2a1b9c', 'ptr <hex> commit <hex>'],
    ['id 0f42c8fe-6cd5-4809-b57d-f1d3d9c41ae8', 'id <uuid>'],
    ['dir tmp-12345-abcXYZ99 gone', 'dir <id> gone'],
    ['GET https://registry.npmjs.org/x:8080/y', 'GET <url>'],
    ['\x1b[31mred\x1b[0m   text', 'red text'],
  ])('%s', (input, expected) => {
    expect(scrubVolatile(input)).toBe(expected);
  });

  it('keeps codes, words and package names', () => {
    const kept =
      "TS2345 E0308 ERR_PNPM_OUTDATED_LOCKFILE x86 'deadbeef' @types/node react-dom/client";
    expect(scrubVolatile(kept)).toBe(kept);
  });

  it.each([
    ['slashes', 'a/'.repeat(200_000)],
    ['dotted', 'a.b'.repeat(200_000)],
    ['positions', 'f.ts:1'.repeat(100_000)],
    ['hex', 'f'.repeat(600_000)],
    ['ids', 'a1-'.repeat(200_000)],
    ['durations', '1.1'.repeat(200_000)],
    ['windows', `C:\\${'a\\'.repeat(200_000)}`],
  ])('one long line of %s: scanned, not backtracked', (_name, line) => {
    expect(scrubVolatile(line).length).toBeGreaterThan(0);
  });
});
