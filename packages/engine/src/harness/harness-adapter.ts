/* The harness contract lives in core (contracts/harness.ts, contracts/lifecycle.ts). */
export type {
  HarnessAdapter,
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from '@cairn/core';
