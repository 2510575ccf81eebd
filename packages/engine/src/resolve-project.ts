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
import { backendOptionsFor, registerBuiltins } from './builtins';
import { deferredBackend } from './deferred-backend';
import type { OpenCairnOptions } from './open-options';
import {
  loadOptionalPackage,
  optionalPackageFailure,
  pendingOptionalPackages,
} from './optional-packages';
import { createProjectRecall, type ProjectRecall } from './recall/project-recall';

/** What `openCairn` and `openMemorySearch` take. */

/** A project's settings, and the backend and retrieval adapter they resolve to. */
export interface ResolvedProject {
  /**
   * The settings, resolved again once a configured optional package has
   * loaded (it declares which of its options need trust).
   */
  readonly resolved: ResolvedSettings;
  readonly settings: CairnSettings;
  readonly backendResolution: Resolution<MemoryBackendRegistration>;
  readonly adapterResolution: Resolution<RetrievalAdapterRegistration>;
  /** This project's own backend instance (loaded on first use when its package is not yet). */
  readonly backend: MemoryBackend;
  /**
   * How this project recalls: the adapter `retrievalAdapter`
   * resolves to, sharing the backend's index when both name one engine,
   * with the lineage and documents pools beside it. Every product recall
   * path (search, memory_search, prompt and session-start recall, packs)
   * calls its `recall()`.
   */
  readonly recall: ProjectRecall;
  /** Imports the configured optional packages still pending and builds the backend; resolutions are final afterwards. */
  ready(): Promise<MemoryBackend>;
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

/** Config findings, fallbacks and load failures; a package still loading is not a fallback yet. */
function projectWarnings(
  state: ProjectState,
  [backendType, adapterId]: [string, string],
  pending: ReadonlySet<string>,
): string[] {
  const fallbacks = [
    pending.has(backendType) ? undefined : state.backendResolution.warning,
    pending.has(adapterId) ? undefined : state.adapterResolution.warning,
  ];
  const loadFailures = [backendType, adapterId].map(optionalPackageFailure);
  return [
    ...state.resolved.warnings,
    ...fallbacks.filter((w): w is string => !!w),
    ...new Set(loadFailures.filter((w): w is string => !!w)),
  ];
}

/**
 * Resolves settings (throwing INVALID_CONFIG on a bad file or value), then
 * the backend and retrieval adapter from the registered factories, building
 * this project's own instances with its own options. An optional package the
 * settings name is imported on first use (see `deferredBackend`); a type
 * nothing provides falls back to the builtins with a warning.
 */
export function resolveProject(rootDir: string, options: OpenCairnOptions = {}): ResolvedProject {
  registerBuiltins();
  const { now: _now, resolvedSettings, ...settingsOptions } = options;
  const env = settingsOptions.env ?? process.env;
  let given = resolvedSettings;
  const resolveState = (): ProjectState => {
    const resolved = given ?? resolveSettings({ projectRoot: rootDir, ...settingsOptions });
    given = undefined;
    return {
      resolved,
      backendResolution: resolveMemoryBackendDetailed(resolved.settings),
      adapterResolution: resolveRetrievalAdapter(resolved.settings),
    };
  };
  let state = resolveState();
  const { memoryBackendType } = state.resolved.settings;
  const retrievalAdapter = requestedRetrievalAdapter(state.resolved.settings);
  const pending = new Set(pendingOptionalPackages([memoryBackendType, retrievalAdapter]));
  let settling: Promise<void> | undefined;
  const settle = () =>
    (settling ??= Promise.all([...pending].map((id) => loadOptionalPackage(id))).then(() => {
      if (pending.size > 0) state = resolveState();
      pending.clear();
    }));
  let createWarning: string | undefined;
  const create = () => {
    const created = createBackend(rootDir, state, env);
    createWarning = created.warning;
    return created.backend;
  };
  const deferred = pending.has(memoryBackendType)
    ? deferredBackend(memoryBackendType, () => settle().then(create))
    : undefined;
  const backend = deferred?.backend ?? create();
  const ready = async () => {
    await settle();
    return deferred ? deferred.ready() : backend;
  };
  const recall = createProjectRecall({
    rootDir,
    env,
    settings: () => state.resolved.settings,
    adapterResolution: () => state.adapterResolution,
    backend: ready,
  });

  const currentWarnings = () => [
    ...new Set([
      ...projectWarnings(state, [memoryBackendType, retrievalAdapter], pending),
      ...(createWarning ? [createWarning] : []),
      ...(backend.warnings ?? []),
      ...recall.warnings,
    ]),
  ];
  return {
    get resolved() {
      return state.resolved;
    },
    get settings() {
      return state.resolved.settings;
    },
    get backendResolution() {
      return state.backendResolution;
    },
    get adapterResolution() {
      return state.adapterResolution;
    },
    backend,
    recall,
    ready,
    currentWarnings,
  };
}

export type { OpenCairnOptions } from './open-options';
