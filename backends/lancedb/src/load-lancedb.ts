import { optionalModule } from '@cairn/index-kit';

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

/**
 * Loads @lancedb/lancedb and apache-arrow, or throws BACKEND_UNAVAILABLE
 * naming the packages and the install command. `loader` replaces the import
 * (tests use it to simulate a missing package).
 */
export const loadLancedb: (loader?: LancedbModuleLoader) => Promise<LancedbModules> =
  optionalModule(
    {
      backend: 'lancedb',
      packages: ['@lancedb/lancedb', 'apache-arrow'],
      installCommand: LANCEDB_INSTALL_COMMAND,
    },
    importModules,
  );
