import { join } from 'node:path';
import { describeZodIssue, safeParse } from '../contracts/schemas';
import { CairnError, configError } from '../errors';
import { checkUserPath } from '../user-paths/owner-rule';
import { userPathWarning } from '../user-paths/user-dir';
import { userConfigDir } from '../user-paths/user-dirs';
import { CAIRN_DIR } from '../workspace/paths';
import {
  getPath,
  readConfigFileWithHash,
  readProjectConfigWithHash,
  setPath,
  unknownEnvVariables,
  unknownKeys,
} from './config-file';
import { SETTING_DEFINITIONS, type SettingDefinition } from './definitions';
import { EnvValueError } from './env-values';
import { gateUntrusted, ignoredWarning, type SettingsTrust } from './project-trust';
import { isTrusted, readTrustStore, trustStorePath } from './trust-store';

export { readConfigFile } from './config-file';
export type { SettingsTrust } from './project-trust';

export interface CairnSettings {
  memoryEnabled: boolean;
  memoryBackendType: string;
  memoryBackendOptions: Record<string, unknown>;
  retrievalAdapter: string;
  insightExtractionEnabled: boolean;
  insightExtractionSchedule: string;
  insightExtractionMinIntervalMs: number;
  timezone: string;
  /** Names the project in default thread keys; empty: the id stored at the first session. */
  projectId: string;
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
  /** Context packs: budget, plane switches and shares. */
  memory: {
    contextBudgetTokens: number;
    /** The memory namespace: task history's partition and the shared indexes'. */
    namespace: string;
    planning: 'beads' | 'bd' | 'off';
    history: 'digest' | 'off';
    longTerm: 'units' | 'off';
    failOpen: boolean;
    /** Each plane's time budget in ms (`memory.planeTimeoutMs`). */
    planeTimeoutMs: number;
    planningShare: number;
    historyShare: number;
    longTermShare: number;
    documentsShare: number;
    /** The documents pool (cold): globs over the project root, per-file and total byte caps. */
    documentGlobs: string[];
    documentMaxFileBytes: number;
    documentMaxTotalBytes: number;
  };
}

/** Explicit overrides, e.g. from CLI flags or a test. */
export type CairnSettingsOverrides = Partial<
  Omit<CairnSettings, 'limits' | 'lineage' | 'summarizer' | 'embedder' | 'search' | 'memory'>
> & {
  limits?: Partial<CairnSettings['limits']>;
  lineage?: Partial<CairnSettings['lineage']>;
  summarizer?: Partial<CairnSettings['summarizer']>;
  embedder?: Partial<CairnSettings['embedder']>;
  search?: Partial<CairnSettings['search']>;
  memory?: Partial<CairnSettings['memory']>;
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
  /** Whether the project config is trusted, and what was ignored because it is not. */
  trust: SettingsTrust;
}

export interface ResolveSettingsOptions {
  /** The project root (the folder holding `.cairn/`). */
  projectRoot: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Defaults to `env.HOME`, then the current user's home directory: a
   * process that resolves settings for another process's environment (the
   * hook server) reads that environment's config, not its own.
   */
  homeDir?: string;
  overrides?: CairnSettingsOverrides;
}

export const PROJECT_CONFIG_FILE = 'config.json';

/** `$XDG_CONFIG_HOME/cairn/config.json`, else `~/.config/cairn/config.json` (a relative XDG value is ignored). */
export function userConfigPath(env: NodeJS.ProcessEnv, homeDir?: string): string {
  return join(userConfigDir(env, homeDir), 'config.json');
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

function validate(definition: SettingDefinition, value: unknown, source: SettingSource): unknown {
  const parsed = safeParse(definition.schema, value);
  if (parsed.success) return parsed.data;
  const { reason } = describeZodIssue(parsed.error);
  const where = source.kind === 'option' ? 'explicit options' : describeSource(source);
  throw configError({ source: where, key: definition.key, reason, cause: parsed.error });
}

interface Layer {
  source: SettingSource;
  /** An untrusted project file: settings that need trust are ignored from it. */
  untrusted?: boolean;
  lookup: (definition: SettingDefinition) => unknown;
}

function fileLayer(
  kind: 'user' | 'project',
  file: string,
  config: Record<string, unknown> | undefined,
  warnings: string[],
): Layer | undefined {
  if (!config) return undefined;
  for (const key of unknownKeys(config)) {
    warnings.push(`unknown setting "${key}" in ${file} is ignored`);
  }
  return { source: { kind, file }, lookup: (d) => getPath(config, d.key) };
}

/**
 * The user config is a trusted layer (it may turn on settings that run
 * programs or send data off the machine), so it is read only when it and
 * every folder above it pass the ownership rule; otherwise it is ignored
 * with a warning naming the path and the fix. It may be a link (a dotfile
 * manager's) whose target passes the rule.
 */
function userLayer(file: string, warnings: string[]): Layer | undefined {
  const problem = checkUserPath(file, { kind: 'file', followLink: true });
  if (problem?.code === 'missing') return undefined;
  if (problem) {
    warnings.push(userPathWarning('the user config', file, problem, 'its settings are ignored'));
    return undefined;
  }
  return fileLayer('user', file, readConfigFileWithHash(file)?.config, warnings);
}

function envLayer(env: NodeJS.ProcessEnv): Layer {
  return {
    source: { kind: 'env', variable: '' },
    lookup: (d) => {
      const raw = env[d.env];
      if (raw === undefined) return undefined;
      try {
        return d.fromEnv(raw);
      } catch (error) {
        if (!(error instanceof EnvValueError)) throw error;
        throw configError({ source: `env ${d.env}`, key: d.key, reason: error.message });
      }
    },
  };
}

/** The project file's trust state, from the user's trust store. */
function projectTrustState(
  file: string,
  sha256: string | undefined,
  env: NodeJS.ProcessEnv,
  homeDir: string | undefined,
  warnings: string[],
): SettingsTrust {
  const storePath = trustStorePath({ env, homeDir });
  if (sha256 === undefined) return { projectConfig: 'absent', ignored: [], storePath };
  const { store, warning } = readTrustStore(storePath);
  if (warning) warnings.push(warning);
  const trusted = isTrusted(store, file, sha256);
  return { projectConfig: trusted ? 'trusted' : 'untrusted', hash: sha256, ignored: [], storePath };
}

/**
 * `limits.injectTokens` is deprecated: one budget, `memory.contextBudgetTokens`,
 * covers all Cairn injects in a turn. A user who set only the old key keeps
 * their figure: it becomes the budget, with a warning saying so.
 */
function migrateInjectTokens(
  settings: CairnSettings,
  sources: Record<string, SettingSource>,
): string | undefined {
  const old = sources['limits.injectTokens'];
  if (!old || old.kind === 'default') return undefined;
  const where = describeSource(old);
  if (sources['memory.contextBudgetTokens']?.kind !== 'default') {
    return `limits.injectTokens (${where}) is deprecated and ignored: memory.contextBudgetTokens is the one budget; remove it`;
  }
  settings.memory.contextBudgetTokens = settings.limits.injectTokens;
  sources['memory.contextBudgetTokens'] = old;
  return `limits.injectTokens (${where}) is deprecated: its ${settings.limits.injectTokens} tokens are used as memory.contextBudgetTokens; rename it`;
}

/** The layers in order (user file, project file, env, options), with the project file's trust. */
function settingLayers(
  options: ResolveSettingsOptions,
  env: NodeJS.ProcessEnv,
  files: { user: string; project: string },
  warnings: string[],
): { layers: Layer[]; trust: SettingsTrust } {
  const layers: Layer[] = [];
  const user = userLayer(files.user, warnings);
  if (user) layers.push(user);
  const projectContent = readProjectConfigWithHash(
    options.projectRoot,
    `${CAIRN_DIR}/${PROJECT_CONFIG_FILE}`,
    files.project,
  );
  const trust = projectTrustState(
    files.project,
    projectContent?.sha256,
    env,
    options.homeDir,
    warnings,
  );
  const project = fileLayer('project', files.project, projectContent?.config, warnings);
  if (project) layers.push({ ...project, untrusted: trust.projectConfig === 'untrusted' });
  layers.push(envLayer(env));
  const overrides = (options.overrides ?? {}) as Record<string, unknown>;
  layers.push({ source: { kind: 'option' }, lookup: (d) => getPath(overrides, d.key) });
  return { layers, trust };
}

/**
 * One setting through the layers: the last layer that sets it wins, each
 * value validated where it comes from; a setting an untrusted project file
 * may not set is gated (ignored, recorded in `trust.ignored`).
 */
function resolveOne(
  definition: SettingDefinition,
  layers: Layer[],
  settings: Record<string, unknown>,
  trust: SettingsTrust,
): { value: unknown; source: SettingSource } {
  const fallback = definition.defaultValue;
  let value = typeof fallback === 'function' ? fallback() : structuredClone(fallback);
  let source: SettingSource = { kind: 'default' };
  for (const layer of layers) {
    const raw = layer.lookup(definition);
    if (raw === undefined) continue;
    const layerSource: SettingSource =
      layer.source.kind === 'env' ? { kind: 'env', variable: definition.env } : layer.source;
    let parsed = validate(definition, raw, layerSource);
    if (layer.untrusted) {
      const gate = gateUntrusted(definition, parsed, settings);
      trust.ignored.push(...gate.ignored);
      if (!gate.use) continue;
      parsed = gate.value;
    }
    source = layerSource;
    value = parsed;
  }
  return { value, source };
}

/**
 * Resolves every setting. Order: defaults < user config < project
 * `.cairn/config.json` < `CAIRN_*` env < explicit overrides. Every value
 * records its source; an invalid file or value throws INVALID_CONFIG naming
 * the file (or variable), the key and the reason. From a project file the
 * user has not trusted (`cairn trust`), settings that run a program or send
 * data off the machine are ignored, each with a warning.
 */
export function resolveSettings(options: ResolveSettingsOptions): ResolvedSettings {
  const env = options.env ?? process.env;
  const userFile = userConfigPath(env, options.homeDir);
  const projectFile = projectConfigPath(options.projectRoot);
  const warnings: string[] = [];
  const files = { user: userFile, project: projectFile };
  const { layers, trust } = settingLayers(options, env, files, warnings);
  for (const variable of unknownEnvVariables(env)) {
    warnings.push(`unknown environment variable ${variable} is ignored (see docs/CONFIG.md)`);
  }
  const settings: Record<string, unknown> = {};
  const sources: Record<string, SettingSource> = {};
  for (const definition of SETTING_DEFINITIONS) {
    const { value, source } = resolveOne(definition, layers, settings, trust);
    setPath(settings, definition.key, value);
    sources[definition.key] = source;
  }
  for (const ignored of trust.ignored) warnings.push(ignoredWarning(ignored, projectFile));
  const migrated = migrateInjectTokens(settings as unknown as CairnSettings, sources);
  if (migrated) warnings.push(migrated);
  return {
    settings: settings as unknown as CairnSettings,
    sources,
    warnings,
    userConfigPath: userFile,
    projectConfigPath: projectFile,
    trust,
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
