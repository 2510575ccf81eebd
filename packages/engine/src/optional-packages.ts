import {
  type BackendOptionTrust,
  getMemoryBackend,
  getRetrievalAdapter,
  type MemoryBackend,
  type RetrievalAdapterRegistration,
  registerBackendOptionTrust,
  registerMemoryBackend,
  registerRetrievalAdapter,
  resolveSettings,
} from '@cairn/core';
import { embedderFromSettings } from './embeddings';
import type { OpenCairnOptions } from './resolve-project';

type ModuleImporter = (specifier: string) => Promise<unknown>;

let importModule: ModuleImporter = (specifier) => import(specifier);

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

/**
 * Registers the optional backend and retrieval adapter the project's
 * settings name, importing their package (`create<Id>Backend(options)`, and
 * `<id>RetrievalAdapter`: a RetrievalAdapterRegistration). A package that is
 * missing or fails to load is remembered; `openCairn` then falls back to
 * `file` with a warning that names the package and how to install it.
 */
export async function loadConfiguredPackages(
  rootDir: string,
  options: Omit<OpenCairnOptions, 'now'> = {},
): Promise<void> {
  const { settings } = resolveSettings({ projectRoot: rootDir, ...options });
  // The backend gets `memoryBackendOptions`, plus the configured embedder unless they name one.
  // Settings are resolved again once the package has declared which options need trust.
  const backendOptions = (): Record<string, unknown> => {
    const current = resolveSettings({ projectRoot: rootDir, ...options }).settings;
    const configured = current.memoryBackendOptions as Record<string, unknown>;
    if (configured.embedder) return configured;
    const embedder = embedderFromSettings(current, rootDir, options.env ?? process.env);
    return embedder ? { ...configured, embedder } : configured;
  };
  const wanted = new Set([settings.memoryBackendType, settings.retrievalAdapter]);
  for (const id of wanted) {
    const name = OPTIONAL_BACKEND_PACKAGES[id];
    if (!name || (getMemoryBackend(id) && getRetrievalAdapter(id))) continue;
    try {
      // A project whose config cannot be read fails later, in openCairn, with the real error.
      const mod = (await importModule(name)) as Record<string, unknown>;
      const create = mod[`create${pascal(id)}Backend`] as
        | ((options: Record<string, unknown>) => MemoryBackend)
        | undefined;
      const adapter = mod[`${id}RetrievalAdapter`] as RetrievalAdapterRegistration | undefined;
      const trust = mod[`${id}OptionTrust`] as BackendOptionTrust | undefined;
      if (trust) registerBackendOptionTrust(id, trust);
      if (create && !getMemoryBackend(id)) registerMemoryBackend(create(backendOptions()));
      if (adapter && !getRetrievalAdapter(id)) registerRetrievalAdapter(adapter);
      failures.delete(name);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      failures.set(
        name,
        `cannot load ${name} (${reason.split('\n')[0]}); install it with \`npm i ${name}\``,
      );
    }
  }
}
