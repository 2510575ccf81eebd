import type { HarnessDeliveryResult } from '@cairn/core';
import type { LifecycleHost } from '@cairn/engine';
import { deliverOpencode, type OpencodeHookEvent, type OpencodeOutput } from './deliver';

export interface DeliveryQueueOptions {
  root: string;
  env: Record<string, string | undefined>;
  /** Opens the project once and keeps it; logs what fails (OpenCode's log), never throws. */
  host: LifecycleHost;
}

/**
 * The plugin's deliveries, one at a time in arrival order, against the
 * project its host keeps open. A failed delivery is logged by the host and
 * answered with undefined.
 */
export function createDeliveryQueue(options: DeliveryQueueOptions) {
  const { root, env, host } = options;
  let queue: Promise<unknown> = Promise.resolve();

  /**
   * A payload that must be fetched first is fetched in its turn, so events
   * queued meanwhile (the idle after a compaction) stay behind it.
   */
  function deliver(
    hookEvent: OpencodeHookEvent,
    payload: unknown | (() => Promise<unknown>),
  ): Promise<HarnessDeliveryResult | undefined> {
    const run = () =>
      host.handle(root, { name: `opencode ${hookEvent}` }, async (cairn) => {
        const value = typeof payload === 'function' ? await payload() : payload;
        return deliverOpencode({ hookEvent, payload: value }, { lifecycle: cairn.lifecycle, env });
      });
    const next = queue.then(run);
    queue = next;
    return next;
  }

  return {
    deliver,
    /** Waits for every queued delivery, then closes what the host opened (databases, watches). */
    async close(): Promise<void> {
      await queue;
      await host.close();
    },
  };
}

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;

/** The lines a delivery hands back for OpenCode's hook output. */
export function outputOf(result: HarnessDeliveryResult | undefined): OpencodeOutput {
  return (result?.output as OpencodeOutput | undefined) ?? {};
}
