import { join, resolve } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';

export { PLUGIN_ID, pluginDir } from './plugin-location';

/** openclaw.json as OpenClaw finds it: OPENCLAW_CONFIG_PATH, else OPENCLAW_STATE_DIR, else ~/.openclaw. */
export function openclawConfigPath(
  options: Pick<HarnessInstallOptions, 'homeDir' | 'env'>,
): string {
  const env = options.env ?? {};
  if (env.OPENCLAW_CONFIG_PATH) return resolve(env.OPENCLAW_CONFIG_PATH);
  const stateDir = env.OPENCLAW_STATE_DIR
    ? resolve(env.OPENCLAW_STATE_DIR)
    : join(options.homeDir, '.openclaw');
  return join(stateDir, 'openclaw.json');
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `path`, created (and attached) when missing or not an object. */
export function objectAt(root: JsonObject, path: string[]): JsonObject {
  let current = root;
  for (const key of path) {
    if (!isObject(current[key])) current[key] = {};
    current = current[key] as JsonObject;
  }
  return current;
}

/** Deletes `path`'s last key, then every parent the deletion left empty. */
export function deleteAt(root: JsonObject, path: string[]): void {
  const parents: JsonObject[] = [root];
  for (const key of path.slice(0, -1)) {
    const next = parents[parents.length - 1]![key];
    if (!isObject(next)) return;
    parents.push(next);
  }
  delete parents[parents.length - 1]![path[path.length - 1]!];
  for (let depth = parents.length - 1; depth > 0; depth -= 1) {
    if (Object.keys(parents[depth]!).length > 0) return;
    delete parents[depth - 1]![path[depth - 1]!];
  }
}
