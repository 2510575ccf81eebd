import { MemoryBackendError } from '@cairn/core';

export type QdrantModule = typeof import('@qdrant/js-client-rest');
export type QdrantClient = InstanceType<QdrantModule['QdrantClient']>;
export type QdrantModuleLoader = () => Promise<QdrantModule>;

export const QDRANT_PACKAGE = '@qdrant/js-client-rest';
/** What a user runs to get the client back. */
export const QDRANT_INSTALL_COMMAND = `pnpm add ${QDRANT_PACKAGE}`;

let loaded: Promise<QdrantModule> | undefined;

/**
 * Loads @qdrant/js-client-rest, or throws BACKEND_UNAVAILABLE naming the
 * package and the install command. Imported lazily: hooks and commands that
 * never recall must not pay for the client and its HTTP stack. `loader`
 * replaces the import (tests simulate a missing install with it).
 */
export async function loadQdrant(loader?: QdrantModuleLoader): Promise<QdrantModule> {
  if (!loader) loaded ??= import('@qdrant/js-client-rest');
  const pending = loader ? loader() : loaded!;
  try {
    return await pending;
  } catch (error) {
    if (!loader) loaded = undefined;
    throw new MemoryBackendError(
      'BACKEND_UNAVAILABLE',
      'qdrant',
      `The optional package ${QDRANT_PACKAGE} could not be loaded`,
      {
        cause: error,
        hint: `install it with \`${QDRANT_INSTALL_COMMAND}\` (npm: \`npm i ${QDRANT_PACKAGE}\`), or set retrievalAdapter / memoryBackendType back to "file"`,
        details: { packages: [QDRANT_PACKAGE] },
      },
    );
  }
}
