import { type CairnHooks, createCairnHooks, type OpencodeClientLike } from './plugin-hooks';

/** Milliseconds the plugin spent inside one OpenCode hook, over every call measured. */
export interface PluginOverhead {
  hook: string;
  calls: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

const SUMMARY = 'Compaction summary: the work so far, kept by the harness.';

/** A stand-in for OpenCode's SDK client: the bench measures Cairn, not OpenCode's HTTP API. */
function benchClient(directory: string): OpencodeClientLike {
  return {
    session: {
      get: async ({ path }) => ({ data: { id: path.id, directory } }),
      messages: async () => ({
        data: [
          {
            info: { id: 'msg_summary', role: 'assistant', summary: true },
            parts: [{ type: 'text', text: SUMMARY }],
          },
        ],
      }),
    },
  };
}

function stats(hook: string, samples: number[]): PluginOverhead {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    hook,
    calls: sorted.length,
    meanMs: sorted.length ? total / sorted.length : 0,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    maxMs: sorted.at(-1) ?? 0,
  };
}

/**
 * Drives the plugin's hooks in-process through `sessions` whole sessions
 * (start, prompt, tool, system transform, compaction, idle) against the
 * project at `root` (which must hold `.cairn/`), and reports the time each
 * hook took. For the bench: it writes real memory state into `root`.
 */
export async function measurePluginOverhead(options: {
  root: string;
  sessions?: number;
  env?: Record<string, string | undefined>;
}): Promise<PluginOverhead[]> {
  const hooks: CairnHooks = createCairnHooks(
    { directory: options.root, client: benchClient(options.root) },
    { env: options.env ?? {} },
  );
  if (!hooks.event) throw new Error(`${options.root} holds no .cairn/: run \`cairn init\` first`);
  const samples = new Map<string, number[]>();
  const time = async (hook: string, run: () => Promise<void>) => {
    const started = performance.now();
    await run();
    samples.set(hook, [...(samples.get(hook) ?? []), performance.now() - started]);
  };
  for (let index = 0; index < (options.sessions ?? 5); index += 1) {
    const sessionID = `ses_bench_${Date.now()}_${index}`;
    const info = { id: sessionID, directory: options.root };
    const properties = { sessionID, info };
    await time('session.created', () =>
      hooks.event!({ event: { type: 'session.created', properties } }),
    );
    await time('chat.message', () =>
      hooks['chat.message']!(
        { sessionID },
        { parts: [{ type: 'text', text: `bench prompt ${index}: how do we deploy?` }] },
      ),
    );
    await time('tool.execute.after', () =>
      hooks['tool.execute.after']!(
        { tool: 'bash', sessionID, callID: `call_${index}`, args: { command: 'ls' } },
        { title: 'ls', output: 'README.md\nsrc', metadata: {} },
      ),
    );
    await time('experimental.chat.system.transform', () =>
      hooks['experimental.chat.system.transform']!({ sessionID }, { system: [] }),
    );
    await time('experimental.session.compacting', () =>
      hooks['experimental.session.compacting']!({ sessionID }, { context: [] }),
    );
    await time('session.compacted', () =>
      hooks.event!({ event: { type: 'session.compacted', properties } }),
    );
    await time('session.idle', () => hooks.event!({ event: { type: 'session.idle', properties } }));
  }
  await hooks.dispose?.();
  return [...samples].map(([hook, values]) => stats(hook, values));
}
