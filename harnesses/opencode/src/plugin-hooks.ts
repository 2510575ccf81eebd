import { formatError } from '@cairn/core';
import { eventProjectRoot, type LifecycleHost, openLifecycleHost } from '@cairn/engine';
import { createDeliveryQueue, type DeliveryQueue, outputOf } from './delivery-queue';
import { SessionTracker } from './session-tracker';

/** The parts of OpenCode's SDK client the plugin uses. */
export interface OpencodeClientLike {
  session: {
    get(options: { path: { id: string } }): Promise<{ data?: unknown }>;
    messages(options: { path: { id: string } }): Promise<{ data?: unknown }>;
  };
  app?: {
    log(options: {
      body: { service: string; level: 'debug' | 'info' | 'error' | 'warn'; message: string };
    }): Promise<unknown>;
  };
}

export interface CairnPluginInput {
  directory: string;
  client: OpencodeClientLike;
}

interface OpencodeEvent {
  type: string;
  properties?: { sessionID?: string; info?: { id?: string } };
}

/** The OpenCode hooks the plugin implements (a structural subset of @opencode-ai/plugin's `Hooks`). */
export interface CairnHooks {
  event?: (input: { event: OpencodeEvent }) => Promise<void>;
  'chat.message'?: (input: { sessionID: string }, output: { parts: unknown[] }) => Promise<void>;
  'tool.execute.after'?: (
    input: { tool: string; sessionID: string; callID: string; args: unknown },
    output: unknown,
  ) => Promise<void>;
  'experimental.chat.system.transform'?: (
    input: { sessionID?: string },
    output: { system: string[] },
  ) => Promise<void>;
  'experimental.session.compacting'?: (
    input: { sessionID: string },
    output: { context: string[]; prompt?: string },
  ) => Promise<void>;
  dispose?: () => Promise<void>;
}

export interface CairnHooksOptions {
  env?: Record<string, string | undefined>;
  /** What opens and keeps the project (default: one of its own); tests pass a pinned clock through it. */
  host?: LifecycleHost;
}

/** The project the plugin serves: the nearest folder with `.cairn/` at or above OpenCode's directory. */
export function cairnRootFor(directory: string): string | undefined {
  return eventProjectRoot(directory);
}

/** Session start, resume, end and compaction: the `event` hook's work and the end rule. */
function sessionEvents(client: OpencodeClientLike, queue: DeliveryQueue, sessions: SessionTracker) {
  async function start(
    hookEvent: 'session.created' | 'session.resumed',
    event: unknown,
    id: string,
  ) {
    if (sessions.isStarted(id)) return;
    sessions.started(id);
    sessions.startInjected(id, outputOf(await queue.deliver(hookEvent, event)).system ?? []);
  }

  /** A session first met at a prompt (resumed, or created before the plugin loaded). */
  async function resume(id: string) {
    if (sessions.isStarted(id)) return;
    const info = await client.session.get({ path: { id } }).then(
      (reply) => reply.data,
      () => undefined,
    );
    if (info) await start('session.resumed', { type: 'session.resumed', properties: { info } }, id);
  }

  async function end(hookEvent: 'session.idle' | 'session.deleted' | 'dispose', id: string) {
    if (!sessions.claimEnd(id)) return;
    // The messages give the run digest the agent's final answer; without them its outcome is unknown.
    await queue.deliver(hookEvent, async () => {
      const messages = await Promise.resolve()
        .then(() => client.session.messages({ path: { id } }))
        .then(
          (reply) => (Array.isArray(reply.data) ? reply.data : undefined),
          () => undefined,
        );
      return { type: hookEvent, properties: { sessionID: id }, ...(messages ? { messages } : {}) };
    });
  }

  async function onEvent(event: OpencodeEvent) {
    const id = event.properties?.sessionID ?? event.properties?.info?.id;
    if (!id) return;
    if (event.type === 'session.created') await start('session.created', event, id);
    if (event.type === 'session.idle') await end('session.idle', id);
    if (event.type === 'session.deleted') {
      await end('session.deleted', id);
      sessions.forget(id);
    }
    if (event.type === 'session.compacted') {
      sessions.touched(id);
      await queue.deliver('session.compacted', async () => {
        const reply = await client.session.messages({ path: { id } });
        return { event, messages: reply.data ?? [] };
      });
    }
  }

  return { resume, end, onEvent };
}

/**
 * The plugin's hooks for one OpenCode instance. Memory opens once, on the
 * first event; every hook is fail-open (errors go to OpenCode's log, never
 * into OpenCode), and deliveries run one at a time in arrival order.
 */
export function createCairnHooks(
  input: CairnPluginInput,
  options: CairnHooksOptions = {},
): CairnHooks {
  const root = cairnRootFor(input.directory);
  if (!root) return {};
  const env = options.env ?? process.env;
  const log = async (message: string) =>
    input.client.app
      ?.log({ body: { service: 'cairn', level: 'warn', message } })
      .catch(() => undefined);
  const host = options.host ?? openLifecycleHost({ env, log: (message) => void log(message) });
  const queue = createDeliveryQueue({ root, env, host });
  const sessions = new SessionTracker();
  const events = sessionEvents(input.client, queue, sessions);
  const failOpen =
    <A extends unknown[]>(name: string, hook: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await hook(...args);
      } catch (error) {
        await log(`cairn ${name}: ${formatError(error)}`);
      }
    };

  return {
    event: failOpen('event', ({ event }: { event: OpencodeEvent }) => events.onEvent(event)),
    'chat.message': failOpen('chat.message', async (hookInput, output) => {
      await events.resume(hookInput.sessionID);
      const result = await queue.deliver('chat.message', { input: hookInput, output });
      sessions.prompted(hookInput.sessionID, outputOf(result).system ?? []);
    }),
    'tool.execute.after': failOpen('tool.execute.after', async (hookInput, output) => {
      sessions.touched(hookInput.sessionID);
      const result = await queue.deliver('tool.execute.after', { input: hookInput, output });
      sessions.afterTool(hookInput.sessionID, outputOf(result).system ?? []);
    }),
    'experimental.chat.system.transform': failOpen(
      'system.transform',
      async (hookInput, output) => {
        output.system.push(...sessions.system(hookInput.sessionID));
      },
    ),
    'experimental.session.compacting': failOpen('session.compacting', async (hookInput, output) => {
      sessions.touched(hookInput.sessionID);
      const result = await queue.deliver('experimental.session.compacting', {
        input: hookInput,
        output: { context: output.context, ...(output.prompt ? { prompt: output.prompt } : {}) },
      });
      output.context.push(...(outputOf(result).context ?? []));
    }),
    dispose: failOpen('dispose', async () => {
      for (const id of sessions.activeSessions()) await events.end('dispose', id);
      await queue.close();
    }),
  };
}
