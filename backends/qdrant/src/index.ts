import pkg from '../package.json' with { type: 'json' };

export {
  loadQdrant,
  QDRANT_INSTALL_COMMAND,
  QDRANT_PACKAGE,
  type QdrantModuleLoader,
} from './load-qdrant';
export { CHUNK_ID_NAMESPACE, pointIdOf, uuidV5 } from './point-id';
export {
  createQdrantBackend,
  type QdrantBackend,
  qdrantCapabilities,
  qdrantIndex,
} from './qdrant-backend';
export { mapQdrantError } from './qdrant-errors';
export { QdrantIndex } from './qdrant-index';
export { qdrantOptionTrust } from './qdrant-option-trust';
export {
  DEFAULT_COLLECTION_PREFIX,
  DEFAULT_MIN_SIMILARITY,
  DEFAULT_NAMESPACE,
  DEFAULT_QDRANT_URL,
  defaultRepo,
  type QdrantBackendOptions,
  qdrantOptionsSchema,
  resolveQdrantOptions,
} from './qdrant-options';
export {
  type ChunkPayload,
  PAYLOAD_INDEXES,
  type RecordKind,
  sparseVectorOf,
  type TrustClass,
} from './qdrant-payload';
export type { QdrantRefreshStats } from './qdrant-refresh';
export {
  createQdrantRetrievalAdapter,
  type QdrantRetrievalAdapter,
  qdrantRetrievalAdapter,
  qdrantRetrievalCapabilities,
} from './qdrant-retrieval-adapter';

export const VERSION: string = pkg.version;
