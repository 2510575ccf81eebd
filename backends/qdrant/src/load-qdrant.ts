import { optionalModule } from '@cairn/index-kit';

export type QdrantModule = typeof import('@qdrant/js-client-rest');
export type QdrantClient = InstanceType<QdrantModule['QdrantClient']>;
export type QdrantModuleLoader = () => Promise<QdrantModule>;

export const QDRANT_PACKAGE = '@qdrant/js-client-rest';
/** What a user runs to get the client back. */
export const QDRANT_INSTALL_COMMAND = `pnpm add ${QDRANT_PACKAGE}`;

/**
 * Loads @qdrant/js-client-rest, or throws BACKEND_UNAVAILABLE naming the
 * package and the install command. Imported lazily: hooks and commands that
 * never recall must not pay for the client and its HTTP stack. `loader`
 * replaces the import (tests simulate a missing install with it).
 */
export const loadQdrant: (loader?: QdrantModuleLoader) => Promise<QdrantModule> = optionalModule(
  { backend: 'qdrant', packages: [QDRANT_PACKAGE], installCommand: QDRANT_INSTALL_COMMAND },
  () => import('@qdrant/js-client-rest'),
);
