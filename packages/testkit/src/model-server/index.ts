export {
  COMPACTION_PROMPT_MARKERS,
  DEFAULT_COMPACTION_SUMMARY,
  isCompactionRequest,
} from './compaction-request';
export type {
  ModelApi,
  ModelServer,
  ModelServerScript,
  RecordedModelRequest,
  ToolCallRule,
} from './model-server-types';
export { DEFAULT_TEXT } from './script-rules';
export { startModelServer } from './start-model-server';
