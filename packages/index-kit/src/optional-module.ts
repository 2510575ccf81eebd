import { MemoryBackendError } from '@cairn/core';

export interface OptionalModuleSpec {
  /** The backend that needs the packages, named in the error. */
  backend: string;
  /** The npm packages, as the error lists them. */
  packages: readonly string[];
  /** What a user runs to get them back. */
  installCommand: string;
}

/**
 * A loader for the optional client packages of an engine (LanceDB, Qdrant):
 * imported on first use and kept, a failed import retried next time, and
 * any failure thrown as BACKEND_UNAVAILABLE naming the packages and the
 * install command. A `loader` passed to the returned function replaces the
 * import (tests simulate a missing package with it).
 */
export function optionalModule<T>(
  spec: OptionalModuleSpec,
  importModules: () => Promise<T>,
): (loader?: () => Promise<T>) => Promise<T> {
  let loaded: Promise<T> | undefined;
  return async (loader) => {
    if (!loader) loaded ??= importModules();
    const pending = loader ? loader() : loaded!;
    try {
      return await pending;
    } catch (error) {
      if (!loader) loaded = undefined;
      const many = spec.packages.length > 1;
      throw new MemoryBackendError(
        'BACKEND_UNAVAILABLE',
        spec.backend,
        `The optional ${many ? 'packages' : 'package'} ${spec.packages.join(' and ')} could not be loaded`,
        {
          cause: error,
          hint: `install ${many ? 'them' : 'it'} with \`${spec.installCommand}\` (npm: \`npm i ${spec.packages.join(' ')}\`), or set retrievalAdapter / memoryBackendType back to "file"`,
          details: { packages: [...spec.packages] },
        },
      );
    }
  };
}
