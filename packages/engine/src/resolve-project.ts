import {
  type CairnSettings,
  type CairnSettingsOverrides,
  type MemoryBackend,
  type Resolution,
  type ResolvedSettings,
  type RetrievalAdapterRegistration,
  resolveMemoryBackendDetailed,
  resolveRetrievalAdapter,
  resolveSettings,
} from '@cairn/core';
import { projectBackend, registerBuiltins } from './builtins';
import { optionalPackageFailure } from './optional-packages';

/** What `openCairn` and `openMemorySearch` take. */
export interface OpenCairnOptions {
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  overrides?: CairnSettingsOverrides;
  /** The clock for timestamps and daily file names; tests pin it. */
  now?: () => Date;
}

/** A project's settings, and the backend and retrieval adapter they resolve to. */
export interface ResolvedProject {
  resolved: ResolvedSettings;
  settings: CairnSettings;
  backendResolution: Resolution<MemoryBackend>;
  adapterResolution: Resolution<RetrievalAdapterRegistration>;
  backend: MemoryBackend;
  /**
   * Config findings and backend/adapter fallbacks the user should see, plus
   * what the backend learned after opening (e.g. its index fell back to a scan).
   */
  currentWarnings(): string[];
}

/**
 * Resolves settings (throwing INVALID_CONFIG on a bad file or value), then
 * the backend and retrieval adapter, falling back to the builtins with a
 * warning for unknown types or optional packages that failed to load.
 */
export function resolveProject(rootDir: string, options: OpenCairnOptions = {}): ResolvedProject {
  registerBuiltins();
  const { now: _now, ...settingsOptions } = options;
  const resolved = resolveSettings({ projectRoot: rootDir, ...settingsOptions });
  const { settings } = resolved;
  const backendResolution = resolveMemoryBackendDetailed(settings);
  const adapterResolution = resolveRetrievalAdapter(settings);
  const backend = projectBackend(
    backendResolution.value,
    settings,
    rootDir,
    settingsOptions.env ?? process.env,
  );
  const loadFailures = [settings.memoryBackendType, settings.retrievalAdapter]
    .map((id) => optionalPackageFailure(id))
    .filter((w): w is string => !!w);
  const warnings = [
    ...resolved.warnings,
    ...[backendResolution.warning, adapterResolution.warning].filter((w): w is string => !!w),
    ...new Set(loadFailures),
  ];
  return {
    resolved,
    settings,
    backendResolution,
    adapterResolution,
    backend,
    currentWarnings: () => [
      ...warnings,
      ...((backend as { warnings?: readonly string[] }).warnings ?? []),
    ],
  };
}
