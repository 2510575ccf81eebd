export type {
  HarnessAdapter,
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from './harness-adapter';
