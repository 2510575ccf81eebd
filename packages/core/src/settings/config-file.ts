import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { describeZodIssue, lazySchema, safeParse } from '../contracts/schemas';
import { configError } from '../errors';
import { sha256Hex } from '../node-crypto';
import { readCairnFileSync, statCairnFile } from '../workspace/cairn-files';
import { isUnsafePathError } from '../workspace/link-checks';
import { CAIRN_DIR, cairnPath } from '../workspace/paths';
import { SETTING_DEFINITIONS } from './definitions';
import { KNOWN_CAIRN_ENV_VARIABLES, TEST_ENV_PREFIX } from './env-values';

/*
 * Cairn's JSON config files: the user's and the project's `config.json`
 * (read and hashed, with the keys and the `CAIRN_*` variables Cairn does not
 * know), and the project's `.cairn/glossary.json` beside it.
 */

export function getPath(object: Record<string, unknown>, key: string): unknown {
  let current: unknown = object;
  for (const part of key.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function setPath(object: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let current = object;
  for (const part of parts.slice(0, -1)) {
    current[part] ??= {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts.at(-1)!] = value;
}

const knownKeys = new Set(SETTING_DEFINITIONS.map((d) => d.key));
const knownGroups = new Set(
  SETTING_DEFINITIONS.filter((d) => d.key.includes('.')).map((d) => d.key.split('.')[0]!),
);

/** Unknown keys are kept for forward compatibility but reported. */
export function unknownKeys(config: Record<string, unknown>): string[] {
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === '$schema' || knownKeys.has(key)) continue;
    if (knownGroups.has(key) && typeof value === 'object' && value !== null) {
      for (const sub of Object.keys(value)) {
        if (!knownKeys.has(`${key}.${sub}`)) unknown.push(`${key}.${sub}`);
      }
      continue;
    }
    unknown.push(key);
  }
  return unknown;
}

const settingVariables = new Set(SETTING_DEFINITIONS.map((d) => d.env));

/** `CAIRN_*` variables that are neither settings nor known runtime variables, sorted. */
export function unknownEnvVariables(env: NodeJS.ProcessEnv): string[] {
  const known = new Set(KNOWN_CAIRN_ENV_VARIABLES);
  return Object.keys(env)
    .filter(
      (name) =>
        name.startsWith('CAIRN_') &&
        !name.startsWith(TEST_ENV_PREFIX) &&
        !settingVariables.has(name) &&
        !known.has(name),
    )
    .sort();
}

/** A config file's parsed object and the sha256 of its bytes. */
export interface ConfigFileContent {
  config: Record<string, unknown>;
  sha256: string;
}

/** Reads a JSON config file and hashes its bytes; a missing file is `undefined`, anything broken throws INVALID_CONFIG. */
export function readConfigFileWithHash(file: string): ConfigFileContent | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw configError({ source: file, key: '(file)', reason: 'cannot be read', cause: error });
  }
  return parseConfigBytes(file, bytes);
}

/**
 * The project's `.cairn/config.json` (`relPath`) through the `.cairn/`
 * resolver: a link on the way or at the file is INVALID_PATH, never
 * followed; otherwise as `readConfigFileWithHash`.
 */
export function readProjectConfigWithHash(
  projectRoot: string,
  relPath: string,
  file: string,
): ConfigFileContent | undefined {
  let bytes: Buffer | undefined;
  try {
    bytes = readCairnFileSync(projectRoot, relPath);
  } catch (error) {
    if (isUnsafePathError(error)) throw error;
    throw configError({ source: file, key: '(file)', reason: 'cannot be read', cause: error });
  }
  return bytes === undefined ? undefined : parseConfigBytes(file, bytes);
}

/** A config file's bytes as JSON; INVALID_CONFIG naming the file when they are not. */
function jsonOfConfig(file: string, bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    const reason = `not valid JSON (${(error as Error).message})`;
    throw configError({ source: file, key: '(file)', reason, cause: error });
  }
}

function parseConfigBytes(file: string, bytes: Buffer): ConfigFileContent {
  const parsed = jsonOfConfig(file, bytes);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw configError({ source: file, key: '(file)', reason: 'expected a JSON object' });
  }
  const config = parsed as Record<string, unknown>;
  for (const group of knownGroups) {
    const value = config[group];
    if (
      value !== undefined &&
      (typeof value !== 'object' || value === null || Array.isArray(value))
    ) {
      throw configError({ source: file, key: group, reason: 'expected an object of settings' });
    }
  }
  return { config, sha256: sha256Hex(bytes) };
}

/** Reads a JSON config file; a missing file is `undefined`, anything broken throws INVALID_CONFIG. */
export function readConfigFile(file: string): Record<string, unknown> | undefined {
  return readConfigFileWithHash(file)?.config;
}

/** A project's own search vocabulary, beside its config: `.cairn/glossary.json`. */
export const PROJECT_GLOSSARY_FILENAME = 'glossary.json';

/**
 * `{ "synonyms": [["tern", "billing app"], ["on-call", "duty"]] }`: groups
 * of words or phrases the project uses for the same thing. Repository
 * content, read without `cairn trust`: a glossary only widens what a
 * search looks for (at a lower weight than the query's own words), it
 * runs nothing and sends nothing.
 */
export const projectGlossarySchema = lazySchema(() =>
  z.strictObject({
    $schema: z.optional(z.string()),
    synonyms: z
      .array(
        z
          .array(z.string().check(z.minLength(1), z.maxLength(100)))
          .check(z.minLength(2), z.maxLength(50)),
      )
      .check(z.maxLength(5000)),
  }),
);

export function projectGlossaryPath(rootDir: string): string {
  return join(cairnPath(rootDir), PROJECT_GLOSSARY_FILENAME);
}

interface CachedGlossary {
  stamp: string;
  groups: string[][];
}

const cache = new Map<string, CachedGlossary>();

function parseGlossary(file: string, bytes: Buffer): string[][] {
  const parsed = jsonOfConfig(file, bytes);
  const result = safeParse(projectGlossarySchema, parsed);
  if (!result.success) {
    const { key, reason } = describeZodIssue(result.error);
    throw configError({ source: file, key, reason });
  }
  return result.data.synonyms;
}

/**
 * The synonym groups of the project at `rootDir`, or undefined when it has
 * no `.cairn/glossary.json`. Read again only when the file's size or mtime
 * moved. A link in its path is refused (INVALID_PATH) and a broken file is
 * INVALID_CONFIG naming the key: the caller decides whether to search
 * without it.
 */
export function readProjectGlossary(rootDir: string): string[][] | undefined {
  const file = projectGlossaryPath(rootDir);
  const relPath = `${CAIRN_DIR}/${PROJECT_GLOSSARY_FILENAME}`;
  // Refuses a link anywhere on the way (INVALID_PATH), and a FIFO or device.
  const info = statCairnFile(rootDir, relPath);
  if (!info) {
    cache.delete(file);
    return undefined;
  }
  const stamp = `${info.size}:${info.mtimeMs}`;
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.groups;
  const bytes = readCairnFileSync(rootDir, relPath);
  if (!bytes) {
    cache.delete(file);
    return undefined;
  }
  const groups = parseGlossary(file, bytes);
  cache.set(file, { stamp, groups });
  return groups;
}
