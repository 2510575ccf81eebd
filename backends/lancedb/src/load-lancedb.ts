import { MemoryBackendError } from '@cairn/core';

export type LancedbModule = typeof import('@lancedb/lancedb');
export type ArrowModule = typeof import('apache-arrow');

/** The two optional packages this backend runs on, loaded together. */
export interface LancedbModules {
  lancedb: LancedbModule;
  arrow: ArrowModule;
}

export type LancedbModuleLoader = () => Promise<LancedbModules>;

/** What a user runs to get the optional packages back. */
export const LANCEDB_INSTALL_COMMAND = 'pnpm add @lancedb/lancedb apache-arrow';

const importModules: LancedbModuleLoader = async () => {
  // Imported lazily: hooks and CLI commands that never search must not pay for the native addon.
  const [lancedb, arrow] = await Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]);
  return { lancedb, arrow };
};

let loaded: Promise<LancedbModules> | undefined;

/**
 * Loads @lancedb/lancedb and apache-arrow, or throws BACKEND_UNAVAILABLE
 * naming the packages and the install command. `loader` replaces the import
 * (tests use it to simulate a missing package).
 */
export async function loadLancedb(loader?: LancedbModuleLoader): Promise<LancedbModules> {
  if (!loader) loaded ??= importModules();
  const pending = loader ? loader() : loaded!;
  try {
    return await pending;
  } catch (error) {
    if (!loader) loaded = undefined;
    throw new MemoryBackendError(
      'BACKEND_UNAVAILABLE',
      'lancedb',
      'The optional packages @lancedb/lancedb and apache-arrow could not be loaded',
      {
        cause: error,
        hint: `install them with \`${LANCEDB_INSTALL_COMMAND}\` (npm: \`npm i @lancedb/lancedb apache-arrow\`), or set retrievalAdapter / memoryBackendType back to "file"`,
        details: { packages: ['@lancedb/lancedb', 'apache-arrow'] },
      },
    );
  }
}
