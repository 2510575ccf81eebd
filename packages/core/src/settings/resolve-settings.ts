import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describeZodIssue, safeParse } from '../contracts/schemas';
import { CairnError, configError } from '../errors';
import { CAIRN_DIR } from '../workspace/paths';
import { SETTING_DEFINITIONS, type SettingDefinition } from './definitions';

export interface CairnSettings {
  memoryEnabled: boolean;
  memoryBackendType: string;
  memoryBackendOptions: Record<string, unknown>;
  retrievalAdapter: string;
  insightExtractionEnabled: boolean;
  insightExtractionSchedule: string;
  insightExtractionMinIntervalMs: number;
  timezone: string;
  limits: {
    searchLimit: number;
    snippetChars: number;
    maxUnitChars: number;
    getMaxLines: number;
    headTokens: number;
    injectTokens: number;
  };
  lineage: { condenseThreshold: number };
  summarizer: {
    provider: 'extractive' | 'openai';
    baseUrl: string;
    model: string;
    apiKeyEnv: string;
  };
  embedder: {
    provider: 'none' | 'hash' | 'openai' | 'transformers';
    model: string;
    baseUrl: string;
    apiKeyEnv: string;
    dimensions: number;
    modelDir: string;
    allowDownload: boolean;
    batchSize: number;
    timeoutMs: number;
  };
  search: {
    vectorWeight: number;
    keywordWeight: number;
    mmr: boolean;
    mmrLambda: number;
    minSimilarity: number;
    recencyHalfLifeDays: number;
  };
}

/** Explicit overrides, e.g. from CLI flags or a test. */
export type CairnSettingsOverrides = Partial<
  Omit<CairnSettings, 'limits' | 'lineage' | 'summarizer' | 'embedder' | 'search'>
> & {
  limits?: Partial<CairnSettings['limits']>;
  lineage?: Partial<CairnSettings['lineage']>;
  summarizer?: Partial<CairnSettings['summarizer']>;
  embedder?: Partial<CairnSettings['embedder']>;
  search?: Partial<CairnSettings['search']>;
};

/** Where a resolved value came from. Later layers win. */
export type SettingSource =
  | { kind: 'default' }
  | { kind: 'user'; file: string }
  | { kind: 'project'; file: string }
  | { kind: 'env'; variable: string }
  | { kind: 'option' };

export interface ResolvedSettings {
  settings: CairnSettings;
  /** Keyed by the dotted setting key. */
  sources: Record<string, SettingSource>;
  /** Non-fatal findings, e.g. unknown keys in a config file. */
  warnings: string[];
  userConfigPath: string;
  projectConfigPath: string;
}

export interface ResolveSettingsOptions {
  /** The project root (the folder holding `.cairn/`). */
  projectRoot: string;
  env?: NodeJS.ProcessEnv;
  /** Defaults to the current user's home directory. */
  homeDir?: string;
  overrides?: CairnSettingsOverrides;
}

export const PROJECT_CONFIG_FILE = 'config.json';

export function userConfigPath(env: NodeJS.ProcessEnv, homeDir: string): string {
  const base = env.XDG_CONFIG_HOME || join(homeDir, '.config');
  return join(base, 'cairn', 'config.json');
}

export function projectConfigPath(projectRoot: string): string {
  return join(projectRoot, CAIRN_DIR, PROJECT_CONFIG_FILE);
}

export function describeSource(source: SettingSource): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'user':
    case 'project':
      return source.file;
    case 'env':
      return `env ${source.variable}`;
    case 'option':
      return 'option';
  }
}

function getPath(object: Record<string, unknown>, key: string): unknown {
  let current: unknown = object;
  for (const part of key.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function setPath(object: Record<string, unknown>, key: string, value: unknown): void {
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
function unknownKeys(config: Record<string, unknown>): string[] {
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

/** Reads a JSON config file; a missing file is `undefined`, anything broken throws INVALID_CONFIG. */
export function readConfigFile(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw configError({ source: file, key: '(file)', reason: 'cannot be read', cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = `not valid JSON (${(error as Error).message})`;
    throw configError({ source: file, key: '(file)', reason, cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw configError({ source: file, key: '(file)', reason: 'expected a JSON object' });
  }
  return parsed as Record<string, unknown>;
}

function validate(definition: SettingDefinition, value: unknown, source: SettingSource): unknown {
  const parsed = safeParse(definition.schema, value);
  if (parsed.success) return parsed.data;
  const { reason } = describeZodIssue(parsed.error);
  const where = source.kind === 'option' ? 'explicit options' : describeSource(source);
  throw configError({ source: where, key: definition.key, reason, cause: parsed.error });
}

interface Layer {
  source: SettingSource;
  lookup: (definition: SettingDefinition) => unknown;
}

function fileLayer(kind: 'user' | 'project', file: string, warnings: string[]): Layer | undefined {
  const config = readConfigFile(file);
  if (!config) return undefined;
  for (const key of unknownKeys(config)) {
    warnings.push(`unknown setting "${key}" in ${file} is ignored`);
  }
  return { source: { kind, file }, lookup: (d) => getPath(config, d.key) };
}

/**
 * Resolves every setting. Order: defaults < user config < project
 * `.cairn/config.json` < `CAIRN_*` env < explicit overrides. Every value
 * records its source; an invalid file or value throws INVALID_CONFIG naming
 * the file (or variable), the key and the reason.
 */
export function resolveSettings(options: ResolveSettingsOptions): ResolvedSettings {
  const env = options.env ?? process.env;
  const userFile = userConfigPath(env, options.homeDir ?? homedir());
  const projectFile = projectConfigPath(options.projectRoot);
  const warnings: string[] = [];
  const layers: Layer[] = [];
  const user = fileLayer('user', userFile, warnings);
  if (user) layers.push(user);
  const project = fileLayer('project', projectFile, warnings);
  if (project) layers.push(project);
  layers.push({
    source: { kind: 'env', variable: '' },
    lookup: (d) => (env[d.env] === undefined ? undefined : d.fromEnv(env[d.env]!)),
  });
  const overrides = (options.overrides ?? {}) as Record<string, unknown>;
  layers.push({ source: { kind: 'option' }, lookup: (d) => getPath(overrides, d.key) });

  const settings: Record<string, unknown> = {};
  const sources: Record<string, SettingSource> = {};
  for (const definition of SETTING_DEFINITIONS) {
    const fallback = definition.defaultValue;
    let value = typeof fallback === 'function' ? fallback() : structuredClone(fallback);
    let source: SettingSource = { kind: 'default' };
    for (const layer of layers) {
      const raw = layer.lookup(definition);
      if (raw === undefined) continue;
      source =
        layer.source.kind === 'env' ? { kind: 'env', variable: definition.env } : layer.source;
      value = validate(definition, raw, source);
    }
    setPath(settings, definition.key, value);
    sources[definition.key] = source;
  }
  return {
    settings: settings as unknown as CairnSettings,
    sources,
    warnings,
    userConfigPath: userFile,
    projectConfigPath: projectFile,
  };
}

/** Reads one resolved value by dotted key, for display. */
export function settingValue(settings: CairnSettings, key: string): unknown {
  const value = getPath(settings as unknown as Record<string, unknown>, key);
  if (value === undefined) {
    throw new CairnError('INVALID_INPUT', `Unknown setting "${key}"`, {
      hint: 'see docs/CONFIG.md for the list of settings',
    });
  }
  return value;
}
