// Shared by the fuzz tests only: generators of hostile values (not in the build).
import fc from 'fast-check';

const UNIT = 'UNIT:11111111-1111-4111-8111-111111111111';

/** Every marker Cairn writes, plus broken halves of them. */
export const cairnMarker = fc.constantFrom(
  '<!-- cairn:head:start -->',
  '<!-- cairn:head:end -->',
  '<!-- cairn:thread-head:start -->',
  '<!-- cairn:thread-head:end -->',
  `<!-- cairn:memory:item:start memory_id=${UNIT} category=fact review=approved created_at=2026-01-01T00:00:00.000Z updated_at=2026-01-01T00:00:00.000Z -->`,
  '<!-- cairn:memory:item:end -->',
  '<!-- cairn:',
  '<!--',
  '-->',
);

/** C0 controls, DEL, NUL, lone surrogates, BOM, RTL override and the Unicode line separators. */
export const controlText = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom(
        '\u007f',
        '\u0000',
        '\ud800',
        '\udfff',
        '\ufeff',
        '\u202e',
        '\u2028',
        '\u2029',
      ),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((chars) => chars.join(''));

/** Path-like values: traversal, absolute, NUL, Windows, URL-encoded, into Cairn's own state. */
export const pathLike = fc.constantFrom(
  '../../etc/passwd',
  '/etc/passwd',
  '..',
  '.',
  'a\u0000b.md',
  'C:\\Windows\\win.ini',
  '\\\\server\\share',
  '~/.ssh/id_rsa',
  '%2e%2e%2fetc%2fpasswd',
  '.cairn/state/lineage.db',
  'MEMORY.md/../../x.md',
  'threads/../../../x.md',
  'file:///etc/passwd',
  '-rf',
  '--json',
);

/** Long strings, up to well past every limit (the largest are few). */
export const longText = fc
  .oneof(
    { weight: 4, arbitrary: fc.integer({ min: 2_001, max: 20_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 400_000 }) },
  )
  .chain((n) => fc.constantFrom('x', 'é', '記', '\u0000', '<!-- ').map((c) => c.repeat(n)));

/** `[[[...]]]` or `{"a":{"a":...}}` nested `depth` levels, as JSON text. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A deeply nested value (not text), for in-process calls that never serialise. */
export function deepValue(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Any of the above, alone or glued together with ordinary text. */
export const hostileString = fc.oneof(
  cairnMarker,
  controlText,
  pathLike,
  longText,
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .tuple(
      fc.array(fc.oneof(cairnMarker, controlText, pathLike, fc.string({ maxLength: 20 })), {
        minLength: 2,
        maxLength: 6,
      }),
      fc.constantFrom(' ', '\n', ''),
    )
    .map(([parts, separator]) => parts.join(separator)),
);

/** Whether the text holds a marker that must never reach a memory file inside a unit. */
export function holdsCairnMarker(text: string): boolean {
  return /<!--\s*cairn:/.test(text);
}

/** Where under `.cairn/` a repository may ship a link: every place Cairn reads, writes or creates. */
export const linkSpot = fc.constantFrom(
  '.cairn',
  '.cairn/memory',
  '.cairn/memory/MEMORY.md',
  '.cairn/memory/DREAMS.md',
  '.cairn/memory/2026-01-01.md',
  '.cairn/memory/threads',
  '.cairn/memory/threads/main.md',
  '.cairn/state',
  '.cairn/state/heads.db',
  '.cairn/state/lineage.db',
  '.cairn/state/lifecycle-errors.jsonl',
  '.cairn/state/locks',
  '.cairn/index',
  '.cairn/index/search.sqlite',
  '.cairn/config.json',
  '.cairn/.gitignore',
);

/** What such a link points at: another project's folder or file, nothing, a device, /proc. */
export const linkTarget = fc.constantFrom(
  'folder',
  'file',
  'dangling',
  '/dev/zero',
  '/proc/self/environ',
);
