import {
  type BackendOptionTrust,
  getMemoryBackend,
  getRetrievalAdapter,
  type MemoryIndexRegistration,
  type ResolvedSettings,
  registerBackendOptionTrust,
  resolveSettings,
} from '@cairn/core';
import type { BackendPackage } from './backend-package';
import { BACKEND_PACKAGES } from './backends.generated';
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

/** The backends Cairn ships as optional packages (the generated registry), by the id settings use. */
const BACKENDS = new Map<string, BackendPackage>(
  BACKEND_PACKAGES.map((entry) => [entry.id, entry]),
);

/** The package name of each optional backend, by the id settings use. */
export const OPTIONAL_BACKEND_PACKAGES: Record<string, string> = Object.fromEntries(
  BACKEND_PACKAGES.map((entry) => [entry.id, entry.package]),
);

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
 * Imports the optional package for `id` and registers what the registry
 * says it exports (see `registerPackage`). Never throws: a package that is missing or fails to
 * load is remembered, and projects fall back to `file` with a warning that
 * names the package and how to install it.
 */
export function loadOptionalPackage(id: string): Promise<void> {
  const entry = BACKENDS.get(id);
  if (!entry) return Promise.resolve();
  let load = loading.get(id);
  if (!load) {
    load = importAndRegister(entry).finally(() => loading.delete(id));
    loading.set(id, load);
  }
  return load;
}

/** A module export that is an index registration of `id`. */
function isIndexRegistration(value: unknown, id: string): value is MemoryIndexRegistration {
  const candidate = value as MemoryIndexRegistration | undefined;
  return (
    typeof candidate?.create === 'function' &&
    typeof candidate.parseOptions === 'function' &&
    candidate.type === id
  );
}

/**
 * Registers what the registry says a package exports: its option trust,
 * and its index, from which the backend and the retrieval adapter are
 * built with the file index as their fallback.
 */
function registerPackage(entry: BackendPackage, mod: Record<string, unknown>): void {
  const index = mod[entry.index];
  if (!isIndexRegistration(index, entry.id)) {
    throw new Error(`${entry.package} does not export the index registration ${entry.index}`);
  }
  const trust = entry.optionTrust ? mod[entry.optionTrust] : undefined;
  if (trust) registerBackendOptionTrust(entry.id, trust as BackendOptionTrust);
  registerIndex(index);
}

async function importAndRegister(entry: BackendPackage): Promise<void> {
  const name = entry.package;
  try {
    registerPackage(entry, (await importModule(name)) as Record<string, unknown>);
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
