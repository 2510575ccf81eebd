import {
  type BackendOptionTrust,
  getMemoryBackend,
  getRetrievalAdapter,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemoryIndexRegistration,
  type ResolvedSettings,
  type RetrievalAdapterRegistration,
  registerBackendOptionTrust,
  registerMemoryBackend,
  registerRetrievalAdapter,
  resolveSettings,
} from '@cairn/core';
import { registerIndex } from './index-registrations';
import type { OpenCairnOptions } from './open-options';

type ModuleImporter = (specifier: string) => Promise<unknown>;

const ownImport: ModuleImporter = (specifier) => import(specifier);
let importModule: ModuleImporter = ownImport;

/**
 * Hosts that cannot run `import()` themselves (the CLI's code-cached
 * CommonJS bundle on Node 20) hand over an importer from an ES module.
 */
export function setModuleImporter(importer: ModuleImporter): void {
  importModule = importer;
}

/** `import()` through the host's importer (see setModuleImporter). */
export function importOptionalModule(specifier: string): Promise<unknown> {
  return importModule(specifier);
}

/**
 * One of the engine's own dependencies (the tokenizer): through the host's
 * importer, which a host that resolves from its own folder (the bench, a
 * plugin host) may not find it from, then from the engine itself.
 */
export async function importEngineDependency(specifier: string): Promise<unknown> {
  try {
    return await importModule(specifier);
  } catch (cause) {
    if (importModule === ownImport) throw cause;
    return ownImport(specifier).catch(() => Promise.reject(cause));
  }
}

/** The backends Cairn ships as optional packages, by the id settings use. */
export const OPTIONAL_BACKEND_PACKAGES: Record<string, string> = {
  lancedb: '@cairn/backend-lancedb',
  mem0: '@cairn/backend-mem0',
  qdrant: '@cairn/backend-qdrant',
  qmd: '@cairn/backend-qmd',
};

const pascal = (id: string) =>
  id
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** Why a configured optional package could not be loaded, by package name. */
const failures = new Map<string, string>();

export function optionalPackageFailure(id: string): string | undefined {
  const name = OPTIONAL_BACKEND_PACKAGES[id];
  return name ? failures.get(name) : undefined;
}

/** Imports under way, by id: projects opened meanwhile share one import. */
const loading = new Map<string, Promise<void>>();

/**
 * The ids among `ids` that name an optional package `openCairn` still has to
 * import: shipped by Cairn, not registered yet, and not already failed.
 */
export function pendingOptionalPackages(ids: readonly string[]): string[] {
  return [...new Set(ids)].filter((id) => {
    const name = OPTIONAL_BACKEND_PACKAGES[id];
    if (!name || failures.has(name)) return false;
    return !getMemoryBackend(id) || !getRetrievalAdapter(id);
  });
}

/**
 * Imports the optional package for `id` and registers what it exports (see
 * `registerModule`) and its `<id>OptionTrust`. Never throws: a package that is missing or fails to
 * load is remembered, and projects fall back to `file` with a warning that
 * names the package and how to install it.
 */
export function loadOptionalPackage(id: string): Promise<void> {
  const name = OPTIONAL_BACKEND_PACKAGES[id];
  if (!name) return Promise.resolve();
  let load = loading.get(id);
  if (!load) {
    load = importAndRegister(id, name).finally(() => loading.delete(id));
    loading.set(id, load);
  }
  return load;
}

/** A module export that is an index registration (`<id>Index`). */
function isIndexRegistration(value: unknown, id: string): value is MemoryIndexRegistration {
  const candidate = value as MemoryIndexRegistration | undefined;
  return (
    typeof candidate?.create === 'function' &&
    typeof candidate.parseOptions === 'function' &&
    candidate.type === id
  );
}

/**
 * Registers what a package exports: its index (`<id>Index`), from which the
 * backend and the retrieval adapter are built with the file index as their
 * fallback; otherwise (third-party plugins) its plain backend factory
 * `create<Id>Backend(options)` with its static `<id>Capabilities`, and its
 * `<id>RetrievalAdapter` registration.
 */
function registerModule(id: string, mod: Record<string, unknown>): void {
  const index = mod[`${id}Index`];
  if (isIndexRegistration(index, id)) {
    registerIndex(index);
    return;
  }
  const create = mod[`create${pascal(id)}Backend`] as
    | ((options: Record<string, unknown>) => MemoryBackend)
    | undefined;
  const capabilities = mod[`${id}Capabilities`] as MemoryBackendCapabilities | undefined;
  const adapter = mod[`${id}RetrievalAdapter`] as RetrievalAdapterRegistration | undefined;
  if (create && capabilities) {
    registerMemoryBackend({
      type: id,
      capabilities,
      create: ({ options }) => create(options ?? {}),
    });
  }
  if (adapter) registerRetrievalAdapter(adapter);
}

async function importAndRegister(id: string, name: string): Promise<void> {
  try {
    const mod = (await importModule(name)) as Record<string, unknown>;
    const trust = mod[`${id}OptionTrust`] as BackendOptionTrust | undefined;
    if (trust) registerBackendOptionTrust(id, trust);
    registerModule(id, mod);
    failures.delete(name);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    failures.set(
      name,
      `cannot load ${name} (${reason.split('\n')[0]}); install it with \`npm i ${name}\``,
    );
  }
}

/**
 * Imports the optional packages the project's settings name, before
 * `openCairn`. Optional: `openCairn` imports them itself on first use. A
 * host calls this to have everything settled when `openCairn` returns (the
 * CLI prints the trust findings of the backend's options right away), and
 * to retry a package that failed to load earlier in the process.
 *
 * Returns the project's settings as resolved once those packages are in
 * (a package declares which of its options need trust): passed on as
 * `resolvedSettings`, they spare `openCairn` reading the config files again.
 */
export async function loadConfiguredPackages(
  rootDir: string,
  options: Omit<OpenCairnOptions, 'now' | 'resolvedSettings'> = {},
): Promise<ResolvedSettings> {
  const resolved = resolveSettings({ projectRoot: rootDir, ...options });
  const { settings } = resolved;
  const wanted = new Set([settings.memoryBackendType, settings.retrievalAdapter]);
  // Only an id with a package to import can change what resolves (a builtin, or a type
  // nothing ships, stays as it is).
  const missing = [...wanted].filter(
    (id) => OPTIONAL_BACKEND_PACKAGES[id] && (!getMemoryBackend(id) || !getRetrievalAdapter(id)),
  );
  if (missing.length === 0) return resolved;
  await Promise.all(missing.map((id) => loadOptionalPackage(id)));
  return resolveSettings({ projectRoot: rootDir, ...options });
}
