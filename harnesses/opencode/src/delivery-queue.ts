import type { HarnessDeliveryResult } from '@cairn/core';
import { formatError } from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import { deliverOpencode, type OpencodeHookEvent, type OpencodeOutput } from './deliver';

export interface DeliveryQueueOptions {
  root: string;
  env: Record<string, string | undefined>;
  open: (root: string) => Cairn;
  /** Where failures go (OpenCode's log); never thrown into OpenCode. */
  log: (message: string) => Promise<unknown>;
}

/**
 * The plugin's deliveries, one at a time in arrival order, against the
 * project's memory opened on the first one. A failed delivery is logged and
 * answered with undefined.
 */
export function createDeliveryQueue(options: DeliveryQueueOptions) {
  let cairn: Cairn | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  /**
   * A payload that must be fetched first is fetched in its turn, so events
   * queued meanwhile (the idle after a compaction) stay behind it.
   */
  function deliver(
    hookEvent: OpencodeHookEvent,
    payload: unknown | (() => Promise<unknown>),
  ): Promise<HarnessDeliveryResult | undefined> {
    const run = async () => {
      try {
        cairn ??= options.open(options.root);
        const value = typeof payload === 'function' ? await payload() : payload;
        return await deliverOpencode(
          { hookEvent, payload: value },
          { lifecycle: cairn.lifecycle, env: options.env },
        );
      } catch (error) {
        await options.log(`cairn ${hookEvent}: ${formatError(error)}`);
        return undefined;
      }
    };
    const next = queue.then(run);
    queue = next;
    return next;
  }

  return {
    deliver,
    /** Waits for every queued delivery, then closes the memory and its backend's databases. */
    async close(): Promise<void> {
      await queue;
      cairn?.closeWorking();
      await cairn?.backend.close?.();
      cairn = undefined;
    },
  };
}

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;

/** The lines a delivery hands back for OpenCode's hook output. */
export function outputOf(result: HarnessDeliveryResult | undefined): OpencodeOutput {
  return (result?.output as OpencodeOutput | undefined) ?? {};
}
