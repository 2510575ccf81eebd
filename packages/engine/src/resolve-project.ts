import {
  type CairnSettings,
  type MemoryBackend,
  type MemoryBackendRegistration,
  type Resolution,
  type ResolvedSettings,
  type RetrievalAdapterRegistration,
  requestedRetrievalAdapter,
  resolveMemoryBackendDetailed,
  resolveRetrievalAdapter,
  resolveSettings,
} from '@cairn/core';
import { backendOptionsFor, registerBuiltins } from './backend-registrations';
import type { OpenCairnOptions } from './open-options';
import { loadConfiguredPackages, optionalPackageFailure } from './optional-packages';
import { createProjectRecall, type ProjectRecall } from './project-recall';

/** A project's settings, and the backend and retrieval adapter they resolve to. */
export interface ResolvedProject {
  /** The settings, resolved once the optional packages they name have loaded. */
  readonly resolved: ResolvedSettings;
  readonly settings: CairnSettings;
  readonly backendResolution: Resolution<MemoryBackendRegistration>;
  readonly adapterResolution: Resolution<RetrievalAdapterRegistration>;
  /** This project's own backend instance. */
  readonly backend: MemoryBackend;
  /**
   * How this project recalls: the adapter `retrievalAdapter`
   * resolves to, sharing the backend's index when both name one engine,
   * with the lineage and documents pools beside it. Every product recall
   * path (search, memory_search, prompt and session-start recall, packs)
   * calls its `recall()`.
   */
  readonly recall: ProjectRecall;
  /**
   * Config findings and backend/adapter fallbacks the user should see, plus
   * what the backend learned after opening (e.g. its index fell back to a scan).
   */
  currentWarnings(): string[];
}

interface ProjectState {
  resolved: ResolvedSettings;
  backendResolution: Resolution<MemoryBackendRegistration>;
  adapterResolution: Resolution<RetrievalAdapterRegistration>;
}

/** This project's instance from the registered factory; a factory that refuses the options falls back to `file`. */
function createBackend(rootDir: string, state: ProjectState, env: NodeJS.ProcessEnv) {
  const { backendResolution, resolved } = state;
  const build = (registration: MemoryBackendRegistration) =>
    registration.create({
      rootDir,
      options: backendOptionsFor(registration.type, resolved.settings, rootDir, env),
    });
  try {
    return { backend: build(backendResolution.value) };
  } catch (error) {
    // A builtin refusing is a bug to surface; `readonly` must never turn into a writable fallback.
    if (backendResolution.resolved === 'file' || backendResolution.resolved === 'readonly') {
      throw error;
    }
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const file = resolveMemoryBackendDetailed({ memoryBackendType: 'file' }).value;
    return {
      backend: build(file),
      warning: `memory backend "${backendResolution.resolved}" refused its options (${reason}); using "file"`,
    };
  }
}

/** Config findings, fallbacks and the load failures of the packages the settings name. */
function projectWarnings(state: ProjectState): string[] {
  const { settings } = state.resolved;
  const ids = [settings.memoryBackendType, requestedRetrievalAdapter(settings)];
  const fallbacks = [state.backendResolution.warning, state.adapterResolution.warning];
  const loadFailures = ids.map(optionalPackageFailure);
  return [
    ...state.resolved.warnings,
    ...fallbacks.filter((w): w is string => !!w),
    ...new Set(loadFailures.filter((w): w is string => !!w)),
  ];
}

/**
 * The settings (`given`, else read from the config files), once the
 * optional packages they name are imported: a package declares which of
 * its options need trust, so settings that named one are resolved again.
 */
async function resolveState(
  rootDir: string,
  options: Omit<OpenCairnOptions, 'now' | 'resolvedSettings' | 'scheduleMaintenance'>,
  given: ResolvedSettings | undefined,
): Promise<ProjectState> {
  const first = given ?? resolveSettings({ projectRoot: rootDir, ...options });
  const loaded = await loadConfiguredPackages(first.settings);
  const resolved = loaded ? resolveSettings({ projectRoot: rootDir, ...options }) : first;
  return {
    resolved,
    backendResolution: resolveMemoryBackendDetailed(resolved.settings),
    adapterResolution: resolveRetrievalAdapter(resolved.settings),
  };
}

/**
 * Resolves settings (throwing INVALID_CONFIG on a bad file or value),
 * imports the optional packages they name (LanceDB, Qdrant, Mem0, qmd),
 * then builds this project's own backend and retrieval adapter from the
 * registered factories with its own options. A type nothing provides, or a
 * package that cannot load, falls back to the builtins with a warning.
 */
export async function resolveProject(
  rootDir: string,
  options: OpenCairnOptions = {},
): Promise<ResolvedProject> {
  registerBuiltins();
  const { now: _now, resolvedSettings, scheduleMaintenance: _schedule, ...rest } = options;
  const env = rest.env ?? process.env;
  const state = await resolveState(rootDir, rest, resolvedSettings);
  const { backend, warning } = createBackend(rootDir, state, env);
  const recall = createProjectRecall({
    rootDir,
    env,
    settings: () => state.resolved.settings,
    adapterResolution: () => state.adapterResolution,
    backend: async () => backend,
  });
  const currentWarnings = () => [
    ...new Set([
      ...projectWarnings(state),
      ...(warning ? [warning] : []),
      ...(backend.warnings ?? []),
      ...recall.warnings,
    ]),
  ];
  return { ...state, settings: state.resolved.settings, backend, recall, currentWarnings };
}

export type { OpenCairnOptions } from './open-options';
