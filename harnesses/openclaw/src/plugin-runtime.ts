import { formatError } from '@cairn/core';
import { type LifecycleHost, openLifecycleHost } from '@cairn/engine';
import { z } from 'zod';
import { agentDatabasePath, readCompactionSummary } from './compaction-summary';
import {
  createOpenclawDeliver,
  createOpenclawDeliverState,
  type OpenclawDeliverState,
} from './deliver';
import { OPENCLAW_HOOKS, type OpenclawHook } from './hook-payloads';

/** plugins.entries.cairn.config, as openclaw.plugin.json's configSchema declares it. */
export const pluginConfigSchema = z.object({
  /** The project whose `.cairn/` receives every session (project-scope install). */
  projectRoot: z.string().min(1).optional(),
  /** Overrides the agent id (default: CAIRN_AGENT_ID, else `openclaw`). */
  agentId: z.string().min(1).max(200).optional(),
  /** A better_sqlite3.node built for OpenClaw's Node (else CAIRN_SQLITE_BINDING). */
  sqliteBinding: z.string().min(1).optional(),
});
export type CairnPluginConfig = z.output<typeof pluginConfigSchema>;

/** The parts of OpenClaw's plugin api the plugin uses. */
export interface OpenclawPluginApi {
  pluginConfig?: unknown;
  config?: unknown;
  logger?: { warn?: (message: string) => void; info?: (message: string) => void };
  on(hook: string, handler: (event: unknown, ctx: unknown) => unknown, options?: object): void;
}

type HookContext = { sessionId?: string; agentId?: string; workspaceDir?: string };
type HookEvent = { sessionFile?: string; previousSessionId?: string };

function configuredWorkspace(config: unknown): string | undefined {
  const workspace = (config as { agents?: { defaults?: { workspace?: unknown } } } | undefined)
    ?.agents?.defaults?.workspace;
  return typeof workspace === 'string' ? workspace : undefined;
}

/** What every instance of the plugin in one process shares. */
export interface SharedPluginState {
  deliver: OpenclawDeliverState;
  /** Opens each project once per process and keeps it; closed at gateway_stop. */
  host: LifecycleHost;
  rootOfSession: Map<string, string>;
}

// On globalThis, not in a module variable: OpenClaw loads a fresh copy of the
// plugin's files for each plugin registry it builds (the gateway's, then one
// per agent run), and hooks of one session arrive through several of them.
const SHARED_STATE = Symbol.for('@cairn/harness-openclaw/shared-state@2');

/** The process-wide state of the plugin, created by the first instance. */
export function sharedPluginState(): SharedPluginState {
  const holder = globalThis as { [SHARED_STATE]?: SharedPluginState };
  holder[SHARED_STATE] ??= {
    deliver: createOpenclawDeliverState(),
    host: openLifecycleHost({ keep: 'open' }),
    rootOfSession: new Map(),
  };
  return holder[SHARED_STATE];
}

/** One registration of the plugin: its config, OpenClaw's api, and what the process shares. */
interface PluginRuntimeState {
  config: CairnPluginConfig;
  api: OpenclawPluginApi;
  shared: SharedPluginState;
  deliver: ReturnType<typeof createOpenclawDeliver>;
  env: NodeJS.ProcessEnv;
}

/**
 * The project of a hook: the configured root, else the nearest `.cairn/`
 * above the agent workspace (or the session's earlier one, OpenClaw's
 * configured workspace, the process's folder).
 */
function projectRootOf(state: PluginRuntimeState, ctx: HookContext): string | undefined {
  const { config, api, shared } = state;
  const start =
    config.projectRoot ??
    ctx.workspaceDir ??
    (ctx.sessionId ? shared.rootOfSession.get(ctx.sessionId) : undefined) ??
    configuredWorkspace(api.config) ??
    process.cwd();
  const root = shared.host.projectRoot(start);
  if (root && ctx.sessionId) shared.rootOfSession.set(ctx.sessionId, root);
  return root;
}

async function payloadOf(
  state: PluginRuntimeState,
  hook: OpenclawHook,
  event: unknown,
  ctx: HookContext,
) {
  if (hook !== 'after_compaction') return { event, ctx };
  const { sessionFile, previousSessionId } = (event ?? {}) as HookEvent;
  const database = agentDatabasePath(sessionFile, ctx.agentId ?? 'main', state.env);
  const sessions = [ctx.sessionId, previousSessionId].filter((id): id is string => !!id);
  const compactionSummary = await readCompactionSummary(database, sessions);
  return { event, ctx, ...(compactionSummary ? { compactionSummary } : {}) };
}

/** One hook, fail-open: whatever fails is logged and answered with undefined. */
async function handleHook(
  state: PluginRuntimeState,
  hook: OpenclawHook,
  event: unknown,
  ctx: unknown,
): Promise<unknown> {
  const { host } = state.shared;
  try {
    const hookCtx = (ctx ?? {}) as HookContext;
    const root = projectRootOf(state, hookCtx);
    if (!root) return undefined;
    const cairn = await host.open(root, state.env);
    const outcome = await host.deliver(
      cairn,
      { name: `openclaw ${hook}`, ...(hookCtx.sessionId ? { sessionKey: hookCtx.sessionId } : {}) },
      async (project) =>
        state.deliver(
          { hookEvent: hook, payload: await payloadOf(state, hook, event, hookCtx) },
          { lifecycle: project.lifecycle, env: state.env },
        ),
    );
    if (!outcome.ok) throw outcome.error;
    return outcome.value.output;
  } catch (error) {
    state.api.logger?.warn?.(`cairn: ${hook} failed open: ${formatError(error)}`);
    return undefined;
  }
}

/**
 * The plugin's behaviour, apart from OpenClaw's registration: each hook
 * resolves the project, opens it once (the shared lifecycle host keeps
 * it), and hands `{event, ctx}` to the same `deliver` the recorded fixtures
 * exercise. Every failure is logged and swallowed: memory trouble never
 * blocks a turn.
 */
export function createPluginRuntime(
  config: CairnPluginConfig,
  api: OpenclawPluginApi,
  shared: SharedPluginState = sharedPluginState(),
) {
  const env = { ...process.env, ...(config.agentId ? { CAIRN_AGENT_ID: config.agentId } : {}) };
  const state: PluginRuntimeState = {
    config,
    api,
    shared,
    deliver: createOpenclawDeliver(shared.deliver),
    env,
  };
  return {
    handle: (hook: OpenclawHook, event: unknown, ctx: unknown) =>
      handleHook(state, hook, event, ctx),
    /** Closes every project the process opened (stores, watches, backends). */
    close: () => shared.host.close(),
  };
}

/** Registers every hook Cairn maps; OpenClaw calls this from the plugin entry. */
export function registerCairnPlugin(api: OpenclawPluginApi): void {
  const parsed = pluginConfigSchema.safeParse(api.pluginConfig ?? {});
  if (!parsed.success) {
    api.logger?.warn?.(`cairn: plugin config ignored (${parsed.error.message}); Cairn is inactive`);
    return;
  }
  const config = parsed.data;
  if (config.sqliteBinding && !process.env.CAIRN_SQLITE_BINDING) {
    process.env.CAIRN_SQLITE_BINDING = config.sqliteBinding;
  }
  const runtime = createPluginRuntime(config, api);
  for (const hook of OPENCLAW_HOOKS) {
    api.on(hook, (event, ctx) => runtime.handle(hook, event, ctx));
  }
  api.on('gateway_stop', () => runtime.close());
}
