export type {
  HarnessAdapter,
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from './harness-adapter';
export {
  applyPlan,
  formatJson,
  type PlannedFile,
  parseJsonFile,
  planJsonEdit,
  previewChange,
  readOptional,
} from './install-files';
