import { CairnError, describeZodIssue, lazySchema, safeParse } from '@cairn/core';
import * as z from 'zod/mini';
import { renderFixPattern } from './fix-pattern-render';
import type { FixPattern } from './fix-pattern-types';

/**
 * `.cairn/memory/fixes/<author>.md` (docs/TEAMS.md): the verified fix
 * patterns one clone learned, with that clone's own evidence, for the
 * other clones of the repository to import. Each pattern is a block a
 * person can read (what it fixes, the steps, the counts) holding one HTML
 * comment with the same fields as JSON, which is what Cairn reads. The
 * file is repository content: everything in it is parsed with the schema
 * below and shown to an agent only quoted and escaped, never run.
 */

export const SHARED_FIXES_FORMAT = 1;
/** A file larger than this is refused: a clone shares tens of patterns, not thousands. */
export const MAX_SHARED_FIXES_BYTES = 1024 * 1024;
const MAX_PATTERNS = 500;

const stepSchema = lazySchema(() =>
  z.strictObject({
    kind: z.enum(['edit', 'config', 'run']),
    key: z.string().check(z.regex(/^(?:edit|config|run:[^\n]{1,200})$/)),
    detail: z.string().check(z.maxLength(400)),
  }),
);

export const sharedPatternSchema = lazySchema(() =>
  z.strictObject({
    id: z.string().check(z.regex(/^FIX-[0-9a-f]{12}$/)),
    namespace: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/)),
    signature: z.string().check(z.regex(/^[0-9a-f]{16}$/)),
    family: z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/)),
    normalized: z.string().check(z.minLength(1), z.maxLength(1000)),
    commandFamily: z.string().check(z.minLength(1), z.maxLength(200)),
    steps: z.array(stepSchema).check(z.maxLength(40)),
    applied: z.number().check(z.int(), z.minimum(0), z.maximum(1e9)),
    succeeded: z.number().check(z.int(), z.minimum(0), z.maximum(1e9)),
    failed: z.number().check(z.int(), z.minimum(0), z.maximum(1e9)),
    /** When the clone learned it: fixed, so a file changes only when what it shares does. */
    learnedAt: z.string().check(z.regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/)),
  }),
);

/** One pattern as a clone shares it: its evidence is that clone's own. */
export type SharedPattern = z.infer<typeof sharedPatternSchema>;

const HEADER = /^<!-- cairn:fixes author=([a-z0-9][a-z0-9._-]{0,63}) format=(\d+) -->$/m;
const PATTERN_COMMENT = /^<!-- cairn:fix (\{.*\}) -->$/gm;

/** JSON that cannot end the comment it sits in (`-->`) nor open a tag. */
const commentJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

function refuse(path: string, reason: string): never {
  throw new CairnError('INVALID_INPUT', `Refused .cairn/memory/${path}: ${reason}`, {
    hint: `this clone imports nothing from it; restore it from git (\`git checkout -- .cairn/memory/${path}\`) or delete it: the clone that shares it writes it anew at its next session end`,
    details: { path, reason },
  });
}

/**
 * Reads a shared fixes file: its author must be the file's name and every
 * pattern must pass the schema, else the whole file is refused with
 * INVALID_INPUT (nothing of it is imported).
 */
export function parseSharedFixes(path: string, text: string, author: string): SharedPattern[] {
  if (Buffer.byteLength(text) > MAX_SHARED_FIXES_BYTES)
    refuse(path, `it is larger than ${MAX_SHARED_FIXES_BYTES} bytes`);
  const header = HEADER.exec(text);
  if (!header) refuse(path, 'it has no `<!-- cairn:fixes author=… format=… -->` line');
  if (header[1] !== author) refuse(path, `it names the author ${header[1]}, not ${author}`);
  if (Number(header[2]) !== SHARED_FIXES_FORMAT)
    refuse(path, `format ${header[2]} is not one this Cairn reads (${SHARED_FIXES_FORMAT})`);
  const patterns: SharedPattern[] = [];
  for (const match of text.matchAll(PATTERN_COMMENT)) {
    if (patterns.length >= MAX_PATTERNS)
      refuse(path, `it holds more than ${MAX_PATTERNS} patterns`);
    let value: unknown;
    try {
      value = JSON.parse(match[1]!);
    } catch {
      refuse(path, `pattern ${patterns.length + 1} is not valid JSON`);
    }
    const parsed = safeParse(sharedPatternSchema, value);
    if (!parsed.success) {
      const { key, reason } = describeZodIssue(parsed.error);
      refuse(path, `pattern ${patterns.length + 1}: ${key}: ${reason}`);
    }
    patterns.push(parsed.data);
  }
  return patterns;
}

/** The pattern as `renderFixPattern` shows it, from what a file holds. */
function asPattern(shared: SharedPattern): FixPattern {
  return {
    ...shared,
    repo: '',
    stepsKey: '',
    steps: shared.steps.map((step) => ({ ...step, eventId: '' })),
    state: 'verified',
    reason: null,
    failureEventId: '',
    successEventId: '',
    createdAt: shared.learnedAt,
    updatedAt: shared.learnedAt,
  };
}

/** The file a clone writes: its patterns sorted by id, the same text for the same patterns. */
export function renderSharedFixes(author: string, patterns: readonly SharedPattern[]): string {
  const sorted = [...patterns].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const blocks = sorted.flatMap((pattern) => [
    `## ${pattern.id}`,
    '',
    `<!-- cairn:fix ${commentJson(pattern)} -->`,
    '',
    ...renderFixPattern(asPattern(pattern)),
    `Evidence in that clone: shown ${pattern.applied} times, worked ${pattern.succeeded}, failed ${pattern.failed}.`,
    '',
  ]);
  return [
    `# Fix patterns shared by clone ${author}`,
    '',
    `<!-- cairn:fixes author=${author} format=${SHARED_FIXES_FORMAT} -->`,
    '',
    "Verified fix patterns Cairn learned in one clone of this repository, with that clone's own evidence. Cairn rewrites this file in that clone only; every other clone imports it (docs/TEAMS.md). Edits here are overwritten.",
    '',
    ...(blocks.length ? blocks : ['_No verified fix patterns yet._', '']),
  ].join('\n');
}
