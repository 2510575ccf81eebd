import {
  type BackendOptionTrust,
  type CairnSettings,
  getMemoryBackend,
  getRetrievalAdapter,
  type MemoryIndexRegistration,
  registerBackendOptionTrust,
  requestedRetrievalAdapter,
} from '@cairn/core';
import type { BackendPackage } from './backend-package';
import { registerIndex } from './backend-registrations';
import { BACKEND_PACKAGES } from './backends.generated';
import { importOptionalModule } from './runtime';

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
    registerPackage(entry, (await importOptionalModule(name)) as Record<string, unknown>);
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
 * Imports the optional packages `settings` name that are not registered
 * yet (`openCairn` awaits this before it builds the backend), and retries
 * one that failed earlier in the process. True when it imported any: a
 * package declares which of its options need trust, so the caller
 * resolves the settings again.
 */
export async function loadConfiguredPackages(settings: CairnSettings): Promise<boolean> {
  const wanted = new Set([settings.memoryBackendType, requestedRetrievalAdapter(settings)]);
  // Only an id with a package to import can change what resolves (a builtin, or a type
  // nothing ships, stays as it is).
  const missing = [...wanted].filter(
    (id) => OPTIONAL_BACKEND_PACKAGES[id] && (!getMemoryBackend(id) || !getRetrievalAdapter(id)),
  );
  if (missing.length === 0) return false;
  await Promise.all(missing.map((id) => loadOptionalPackage(id)));
  return true;
}
