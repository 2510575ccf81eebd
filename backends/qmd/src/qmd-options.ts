import { createHash } from 'node:crypto';
import { basename, isAbsolute, join, resolve } from 'node:path';
import {
  cairnIndexPath,
  indexCommonOptions,
  integerOption,
  invalidBackendOption,
  lazySchema,
  parseBackendOptions,
  type ResolvedIndexCommonOptions,
  stringOption,
  stringRecordOption,
} from '@cairn/core';
import * as z from 'zod/mini';

/** The folder under `.cairn/index/` that holds qmd's index and config for the project. */
export const QMD_INDEX_DIR = 'qmd';
export const DEFAULT_SEARCH_TIMEOUT_MS = 10_000;
export const DEFAULT_UPDATE_TIMEOUT_MS = 120_000;
export const DEFAULT_UPDATE_DEBOUNCE_MS = 1_000;

export interface QmdBackendOptions {
  /**
   * How to run qmd: a command (`qmd`, `/opt/bin/qmd`) or a command with its
   * first arguments (`['/usr/bin/node22', '/opt/qmd/dist/cli/qmd.js']`).
   * Default: `qmd` found on PATH. Without one, search uses the file index.
   */
  command?: string | string[];
  /** qmd collection name for the workspace. Default `cairn-<folder>-<hash of the root>`. */
  collection?: string;
  /**
   * Where qmd keeps its SQLite index and collection config: absolute, or
   * relative to the project root. Default `<root>/.cairn/index/qmd/`.
   */
  indexDir?: string;
  /** A search slower than this falls back to the file index. Default 10 s. */
  searchTimeoutMs?: number;
  /** Limit for `qmd update` and `qmd collection add`. Default 120 s. */
  updateTimeoutMs?: number;
  /** Quiet time after the last write before `qmd update` runs. Default 1 s. */
  updateDebounceMs?: number;
  /** Extra environment for qmd (e.g. `QMD_SQLITE_BUSY_TIMEOUT`). */
  env?: Record<string, string>;
  /** Most lines one `get` returns (file storage). Default 200. */
  getMaxLines?: number;
  /** Told once about each distinct warning (fallbacks to the file index). */
  onWarning?: (message: string) => void;
}

export interface ResolvedQmdOptions extends ResolvedIndexCommonOptions {
  command: string[] | undefined;
  collection: string | undefined;
  indexDir: string | undefined;
  searchTimeoutMs: number;
  updateTimeoutMs: number;
  updateDebounceMs: number;
  env: Record<string, string>;
}

const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const invalid = invalidBackendOption(
  'qmd',
  'in code or memoryBackendOptions in .cairn/config.json',
);

const COMMAND_MESSAGE = 'expected a non-empty string or a non-empty list of strings';
const nonEmpty = () => z.string({ error: COMMAND_MESSAGE }).check(z.minLength(1, COMMAND_MESSAGE));

/**
 * qmd's options (zod/mini, built on first use). `embedder` is accepted
 * because the engine passes the configured one to every backend; qmd
 * embeds with its own models and ignores it.
 */
export const qmdOptionsSchema = lazySchema(() =>
  z.strictObject({
    command: z.optional(
      z.pipe(
        z.union([nonEmpty(), z.array(nonEmpty()).check(z.minLength(1, COMMAND_MESSAGE))], {
          error: COMMAND_MESSAGE,
        }),
        z.transform((value) => (typeof value === 'string' ? [value] : [...value])),
      ),
    ),
    collection: stringOption(COLLECTION_NAME),
    indexDir: stringOption(),
    searchTimeoutMs: integerOption(1, DEFAULT_SEARCH_TIMEOUT_MS),
    updateTimeoutMs: integerOption(1, DEFAULT_UPDATE_TIMEOUT_MS),
    updateDebounceMs: integerOption(0, DEFAULT_UPDATE_DEBOUNCE_MS),
    env: stringRecordOption(),
    ...indexCommonOptions(),
    embedder: z.optional(z.unknown()),
  }),
);

/** Validates options from code or JSON settings and applies the defaults. */
export function resolveQmdOptions(input: unknown = {}): ResolvedQmdOptions {
  const { embedder: _ignored, ...options } = parseBackendOptions(qmdOptionsSchema, input, invalid);
  const { command, collection, indexDir, onWarning } = options;
  return { ...options, command, collection, indexDir, env: options.env ?? {}, onWarning };
}

/** The folder holding qmd's index for this project (never the user's home). */
export function qmdIndexDir(rootDir: string, configured?: string): string {
  if (!configured) return join(cairnIndexPath(rootDir), QMD_INDEX_DIR);
  return isAbsolute(configured) ? configured : resolve(rootDir, configured);
}

/** A collection name unique to the project: readable folder name plus a hash of the full path. */
export function defaultCollectionName(rootDir: string): string {
  const absolute = resolve(rootDir);
  const slug =
    basename(absolute)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32) || 'project';
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 8);
  return `cairn-${slug}-${hash}`;
}
