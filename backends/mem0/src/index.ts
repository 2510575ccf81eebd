import pkg from '../package.json' with { type: 'json' };

export { chunkMetadata } from './chunk-metadata';
export { CairnLangchainEmbeddings } from './langchain-embeddings';
export {
  loadMem0,
  MEM0_INSTALL_COMMAND,
  type Mem0Entry,
  type Mem0ModuleLoader,
  prepareMem0Environment,
} from './load-mem0';
export {
  createMem0Backend,
  type Mem0Backend,
  mem0Capabilities,
  mem0Index,
} from './mem0-backend';
export { MEM0_PUSHED_FILTERS, Mem0Index } from './mem0-index';
export { mem0OptionTrust } from './mem0-option-trust';
export {
  DEFAULT_API_KEY_ENV,
  DEFAULT_CHUNK,
  DEFAULT_SCOPE,
  DEFAULT_THRESHOLD,
  MEM0_INDEX_DIR,
  type Mem0BackendOptions,
  type Mem0Mode,
  type Mem0Scope,
  mem0DataDir,
  mem0OptionsSchema,
  type ResolvedMem0Options,
  resolveMem0Options,
} from './mem0-options';
export { Mem0Project, namespaceOf } from './mem0-project';
export {
  createMem0RetrievalAdapter,
  type Mem0RetrievalAdapter,
  mem0RetrievalAdapter,
  mem0RetrievalCapabilities,
} from './mem0-retrieval-adapter';
export type {
  Mem0Condition,
  Mem0Hit,
  Mem0Metadata,
  Mem0SearchRequest,
  Mem0Store,
} from './mem0-store';
export { type Mem0SyncStats, manifestPath, syncMirror } from './mirror';
export { embedderTag, openOssStore, ossVectorStore } from './oss-store';
export { openPlatformStore, platformFilters } from './platform-store';
export {
  chunksOf,
  folderSource,
  type MirrorSource,
  mirrorSourceOf,
  WORKSPACE_KEY,
  workspaceSource,
} from './sources';

export const VERSION: string = pkg.version;
