import { lazySchema } from '@cairn/core';
import * as z from 'zod/mini';

/**
 * The archive `cairn export` writes and `cairn import` reads
 * (docs/TEAMS.md#backup-and-restore): gzip'd JSON lines. The first line
 * is the header, then one line per file and per database row, then a
 * trailer with the count of the lines before it and the SHA-256 of their
 * bytes, so a cut or altered archive is refused before anything is read
 * into the project. Every line is parsed with the schemas below.
 */

export const ARCHIVE_FORMAT = 'cairn-export';
export const ARCHIVE_VERSION = 1;

/** The state databases an archive carries, by their name under `.cairn/state/`. */
export const ARCHIVE_DATABASES = ['lineage', 'heads', 'history'] as const;
export type ArchiveDatabase = (typeof ARCHIVE_DATABASES)[number];

/** A line longer than this is refused: a transcript entry is at most a few MiB, even encoded. */
export const MAX_ARCHIVE_LINE = 64 * 1024 * 1024;

const iso = () => z.string().check(z.regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/));
const schemaVersion = () => z.number().check(z.int(), z.minimum(1), z.maximum(10_000));

export const archiveHeaderSchema = lazySchema(() =>
  z.strictObject({
    format: z.literal(ARCHIVE_FORMAT),
    version: z.literal(ARCHIVE_VERSION),
    createdAt: iso(),
    /** The @cairn/engine version that wrote it, for people. */
    cairn: z.string().check(z.maxLength(64)),
    /** The schema version of each database it holds rows of (a missing one: the project had none). */
    schemas: z.strictObject({
      lineage: z.optional(schemaVersion()),
      heads: z.optional(schemaVersion()),
      history: z.optional(schemaVersion()),
    }),
  }),
);
export type ArchiveHeader = z.infer<typeof archiveHeaderSchema>;

/** A column value: text, a number, null, or bytes as base64. */
const valueSchema = lazySchema(() =>
  z.union([
    z.null(),
    z.string(),
    z.number().check(z.refine(Number.isFinite, 'a finite number')),
    z.strictObject({ $b64: z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/)) }),
  ]),
);
export type ArchiveValue = z.infer<typeof valueSchema>;

const fileRecordSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal('file'),
    /** Project-relative: `.cairn/config.json`, `.cairn/.gitignore` or `.cairn/memory/<workspace file>`. */
    path: z.string().check(z.minLength(1), z.maxLength(300)),
    data: z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/)),
  }),
);

const rowRecordSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal('row'),
    db: z.enum(ARCHIVE_DATABASES),
    table: z.string().check(z.regex(/^[a-z][a-z0-9_]{0,62}$/)),
    row: z.record(z.string().check(z.regex(/^[a-z][a-z0-9_]{0,62}$/)), valueSchema),
  }),
);

const endRecordSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal('end'),
    /** Lines before this one, the header included. */
    lines: z.number().check(z.int(), z.minimum(1)),
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  }),
);

export const archiveRecordSchema = lazySchema(() =>
  z.discriminatedUnion('type', [fileRecordSchema, rowRecordSchema, endRecordSchema]),
);
export type ArchiveRecord = z.infer<typeof archiveRecordSchema>;
export type FileRecord = Extract<ArchiveRecord, { type: 'file' }>;
export type RowRecord = Extract<ArchiveRecord, { type: 'row' }>;

/** A database value as the archive holds it. */
export function encodeValue(value: unknown): ArchiveValue {
  if (value instanceof Uint8Array) return { $b64: Buffer.from(value).toString('base64') };
  if (typeof value === 'bigint') return Number(value);
  if (value === undefined) return null;
  return value as ArchiveValue;
}

/** An archive value as the database takes it. */
export function decodeValue(value: ArchiveValue): string | number | null | Buffer {
  if (value !== null && typeof value === 'object') return Buffer.from(value.$b64, 'base64');
  return value;
}
