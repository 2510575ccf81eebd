import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CAIRN_DIR } from '@cairn/core';
import { type Cairn, findProjectRoot, openCairn } from '@cairn/engine';
import { z } from 'zod';
import { agentDatabasePath, readCompactionSummary } from './compaction-summary';
import {
  createOpenclawDeliver,
  createOpenclawDeliverState,
  type OpenclawDeliverState,
} from './openclaw-deliver';
import { OPENCLAW_HOOKS, type OpenclawHook } from './openclaw-payloads';

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
  /** Open projects by root: opened once per process, closed at gateway_stop. */
  cairns: Map<string, Cairn>;
  rootOfSession: Map<string, string>;
}

// On globalThis, not in a module variable: OpenClaw loads a fresh copy of the
// plugin's files for each plugin registry it builds (the gateway's, then one
// per agent run), and hooks of one session arrive through several of them.
const SHARED_STATE = Symbol.for('@cairn/harness-openclaw/shared-state@1');

/** The process-wide state of the plugin, created by the first instance. */
export function sharedPluginState(): SharedPluginState {
  const holder = globalThis as { [SHARED_STATE]?: SharedPluginState };
  holder[SHARED_STATE] ??= {
    deliver: createOpenclawDeliverState(),
    cairns: new Map(),
    rootOfSession: new Map(),
  };
  return holder[SHARED_STATE];
}

/**
 * The plugin's behaviour, apart from OpenClaw's registration: each hook
 * resolves the project (configured root, else the nearest `.cairn/` above
 * the agent workspace), opens it once, and hands `{event, ctx}` to the same
 * `deliver` the recorded fixtures exercise. Every failure is logged and
 * swallowed: memory trouble never blocks a turn.
 */
export function createPluginRuntime(
  config: CairnPluginConfig,
  api: OpenclawPluginApi,
  shared: SharedPluginState = sharedPluginState(),
) {
  const deliver = createOpenclawDeliver(shared.deliver);
  const { cairns, rootOfSession } = shared;
  const env = { ...process.env, ...(config.agentId ? { CAIRN_AGENT_ID: config.agentId } : {}) };

  function projectFor(ctx: HookContext): Cairn | undefined {
    const start =
      config.projectRoot ??
      ctx.workspaceDir ??
      (ctx.sessionId ? rootOfSession.get(ctx.sessionId) : undefined) ??
      configuredWorkspace(api.config) ??
      process.cwd();
    const root = findProjectRoot(start);
    if (!existsSync(join(root, CAIRN_DIR))) return undefined;
    if (ctx.sessionId) rootOfSession.set(ctx.sessionId, root);
    let cairn = cairns.get(root);
    if (!cairn) {
      cairn = openCairn(root, { env });
      cairns.set(root, cairn);
    }
    return cairn;
  }

  async function payloadOf(hook: OpenclawHook, event: unknown, ctx: HookContext) {
    if (hook !== 'after_compaction') return { event, ctx };
    const { sessionFile, previousSessionId } = (event ?? {}) as HookEvent;
    const database = agentDatabasePath(sessionFile, ctx.agentId ?? 'main', env);
    const sessions = [ctx.sessionId, previousSessionId].filter((id): id is string => !!id);
    const compactionSummary = await readCompactionSummary(database, sessions);
    return { event, ctx, ...(compactionSummary ? { compactionSummary } : {}) };
  }

  async function handle(hook: OpenclawHook, event: unknown, ctx: unknown): Promise<unknown> {
    try {
      const hookCtx = (ctx ?? {}) as HookContext;
      const cairn = projectFor(hookCtx);
      if (!cairn) return undefined;
      const payload = await payloadOf(hook, event, hookCtx);
      const result = await deliver(
        { hookEvent: hook, payload },
        { lifecycle: cairn.lifecycle, env },
      );
      return result.output;
    } catch (error) {
      api.logger?.warn?.(
        `cairn: ${hook} failed open: ${(error as Error).message ?? String(error)}`,
      );
      return undefined;
    }
  }

  return {
    handle,
    async close() {
      const open = [...cairns.values()];
      cairns.clear();
      for (const cairn of open) cairn.closeWorking();
      await Promise.all(open.map((cairn) => cairn.backend.close?.()));
    },
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
