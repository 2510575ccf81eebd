import type { MemoryBackend, MemoryBackendCapabilities } from './contracts/memory-backend';
import type {
  MemoryRetrievalAdapter,
  RetrievalAdapterCapabilities,
} from './contracts/retrieval-adapter';
import { MemoryBackendError } from './errors';

/**
 * Function-based registries (seed 000 §3.4): module-level maps of factories,
 * never of instances (an instance carries one project's options). Core cannot
 * import the builtin backends (they depend on core), so `@cairn/engine`
 * registers them when it loads.
 */

/** The default backend: the embedded `file` backend needs no external runtime. */
export const DEFAULT_MEMORY_BACKEND = 'file';
/** The builtin retrieval adapter (the `file` index): what every fallback ends at. */
export const DEFAULT_RETRIEVAL_ADAPTER = 'file';
/**
 * The `retrievalAdapter` setting's default: recall through the index of the
 * configured backend (`readonly` reads the file index), so a project that
 * names only `memoryBackendType: "lancedb"` recalls through LanceDB.
 */
export const FOLLOW_BACKEND_ADAPTER = 'auto';

export const MEMORY_BACKEND_SETTINGS_KEYS = {
  MEMORY_BACKEND_TYPE: 'memoryBackendType',
} as const;

/** Options a backend factory receives: one project's. */
export interface MemoryBackendFactoryOptions {
  /** The project root. */
  rootDir: string;
  /** Backend-specific options (`memoryBackendOptions`, plus the configured embedder). */
  options?: Record<string, unknown>;
}

/**
 * Backends hold per-project state (open indexes, warnings, options), so the
 * registry keeps factories: two projects in one process each get an
 * instance built with their own options. Capabilities are on the
 * registration so they can be read without creating anything.
 */
export interface MemoryBackendRegistration {
  /** Registry key, equal to the backend's `type`. */
  type: string;
  capabilities: MemoryBackendCapabilities;
  create(options: MemoryBackendFactoryOptions): MemoryBackend;
}

const backends = new Map<string, MemoryBackendRegistration>();

export function registerMemoryBackend(registration: MemoryBackendRegistration): void {
  backends.set(registration.type, registration);
}

export function getMemoryBackend(type: string): MemoryBackendRegistration | undefined {
  return backends.get(type);
}

export function listMemoryBackendTypes(): string[] {
  return [...backends.keys()].sort();
}

/** The outcome of resolving a configured type, with the reason for any fallback. */
export interface Resolution<T> {
  value: T;
  /** The type that was asked for. */
  requested: string;
  /** The type actually used. */
  resolved: string;
  /** Set when the requested type was not registered and the default was used. */
  warning?: string;
}

/**
 * The shared fallback chain: the configured entry if registered, else the
 * default. An unknown configured name is allowed to stay in the settings;
 * it only produces a warning.
 */
function resolveFrom<T>(
  registry: Map<string, T>,
  requested: string,
  fallbackName: string,
  what: string,
): Resolution<T> {
  const configured = registry.get(requested);
  if (configured) return { value: configured, requested, resolved: requested };
  const fallback = registry.get(fallbackName);
  if (!fallback) {
    throw new MemoryBackendError(
      'BACKEND_UNAVAILABLE',
      requested,
      `No ${what} "${requested}" is registered and the default "${fallbackName}" is missing`,
      { hint: 'import @cairn/engine (it registers the builtins) or register one' },
    );
  }
  const known = [...registry.keys()].sort().join(', ');
  return {
    value: fallback,
    requested,
    resolved: fallbackName,
    warning: `${what} "${requested}" is not registered (known: ${known}); using "${fallbackName}"`,
  };
}

/** Resolves the backend for the settings, with the reason for any fallback. */
export function resolveMemoryBackendDetailed(
  settings: { memoryBackendType?: string } = {},
): Resolution<MemoryBackendRegistration> {
  const requested = settings.memoryBackendType ?? DEFAULT_MEMORY_BACKEND;
  return resolveFrom(backends, requested, DEFAULT_MEMORY_BACKEND, 'memory backend');
}

/** Seed 000 §3.5: the backend to use for these settings, created for one project. */
export function resolveMemoryBackend(
  settings: { memoryBackendType?: string } | undefined,
  options: MemoryBackendFactoryOptions,
): MemoryBackend {
  return resolveMemoryBackendDetailed(settings).value.create(options);
}

/** Options an adapter factory receives. */
export interface RetrievalAdapterFactoryOptions {
  /** The project root. */
  rootDir: string;
  /** Adapter-specific options from settings. */
  options?: Record<string, unknown>;
}

/**
 * Adapters hold per-project state (pools, open indexes), so the registry
 * keeps factories; capabilities are on the registration so they can be
 * read without creating anything.
 */
export interface RetrievalAdapterRegistration {
  id: string;
  capabilities: RetrievalAdapterCapabilities;
  create(options: RetrievalAdapterFactoryOptions): MemoryRetrievalAdapter;
}

const adapters = new Map<string, RetrievalAdapterRegistration>();

export function registerRetrievalAdapter(registration: RetrievalAdapterRegistration): void {
  adapters.set(registration.id, registration);
}

export function getRetrievalAdapter(id: string): RetrievalAdapterRegistration | undefined {
  return adapters.get(id);
}

export function listRetrievalAdapterIds(): string[] {
  return [...adapters.keys()].sort();
}

/** The adapter id the settings ask for: `retrievalAdapter`, or the backend's when it is `auto` (the default). */
export function requestedRetrievalAdapter(
  settings: { retrievalAdapter?: string; memoryBackendType?: string } = {},
): string {
  const configured = settings.retrievalAdapter ?? FOLLOW_BACKEND_ADAPTER;
  if (configured !== FOLLOW_BACKEND_ADAPTER) return configured;
  const backend = settings.memoryBackendType ?? DEFAULT_MEMORY_BACKEND;
  return backend === 'readonly' ? DEFAULT_RETRIEVAL_ADAPTER : backend;
}

/**
 * Same chain as backends: the requested adapter if registered, else `file`.
 * Following a backend that is not registered says nothing more: the
 * backend's own warning already names it.
 */
export function resolveRetrievalAdapter(
  settings: { retrievalAdapter?: string; memoryBackendType?: string } = {},
): Resolution<RetrievalAdapterRegistration> {
  const requested = requestedRetrievalAdapter(settings);
  const resolution = resolveFrom(
    adapters,
    requested,
    DEFAULT_RETRIEVAL_ADAPTER,
    'retrieval adapter',
  );
  const follows = (settings.retrievalAdapter ?? FOLLOW_BACKEND_ADAPTER) === FOLLOW_BACKEND_ADAPTER;
  if (!follows || !resolution.warning) return resolution;
  const { warning: _warning, ...quiet } = resolution;
  return quiet;
}
