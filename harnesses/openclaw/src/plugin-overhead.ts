import { openCairn } from '@cairn/engine';
import { createOpenclawDeliver } from './deliver';

/** Milliseconds the plugin spent in one OpenClaw hook, per replay. */
export interface PluginOverhead {
  hook: string;
  samples: number[];
  medianMs: number;
  maxMs: number;
}

/**
 * For the bench: replays recorded `{hookEvent, payload}` deliveries through
 * the plugin's mapping against a real engine in `root` (an initialised
 * project), `rounds` times with fresh session ids, and reports the time each
 * hook adds in-process. The plugin's own wiring (root lookup, the summary
 * read of after_compaction) is not included.
 */
export async function measurePluginOverhead(options: {
  root: string;
  deliveries: { hookEvent: string; payload: unknown }[];
  rounds?: number;
  env?: Record<string, string | undefined>;
}): Promise<PluginOverhead[]> {
  const env = options.env ?? {};
  const cairn = await openCairn(options.root, { env });
  const samples = new Map<string, number[]>();
  try {
    for (let round = 0; round < (options.rounds ?? 5); round += 1) {
      const deliver = createOpenclawDeliver();
      for (const delivery of options.deliveries) {
        const payload = JSON.parse(
          JSON.stringify(delivery.payload).replaceAll(
            '"sessionId":"',
            `"sessionId":"bench-${round}-`,
          ),
        ) as unknown;
        const started = performance.now();
        await deliver(
          { hookEvent: delivery.hookEvent, payload },
          { lifecycle: cairn.lifecycle, env },
        );
        const list = samples.get(delivery.hookEvent) ?? [];
        list.push(performance.now() - started);
        samples.set(delivery.hookEvent, list);
      }
    }
  } finally {
    cairn.closeWorking();
  }
  return [...samples].map(([hook, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return {
      hook,
      samples: list,
      medianMs: sorted[Math.floor(sorted.length / 2)]!,
      maxMs: sorted.at(-1)!,
    };
  });
}
