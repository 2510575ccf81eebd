import { readFileSync } from 'node:fs';
import { configError } from '../errors';
import { sha256Hex } from '../node-crypto';
import { readCairnFileSync } from '../workspace/cairn-files';
import { isUnsafePathError } from '../workspace/link-checks';
import { SETTING_DEFINITIONS } from './definitions';

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

function parseConfigBytes(file: string, bytes: Buffer): ConfigFileContent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    const reason = `not valid JSON (${(error as Error).message})`;
    throw configError({ source: file, key: '(file)', reason, cause: error });
  }
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
