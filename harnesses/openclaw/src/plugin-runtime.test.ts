import { openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenclawPluginApi, registerCairnPlugin } from './plugin-runtime';

type Handler = (event: unknown, ctx: unknown) => unknown;

/** The part of OpenClaw's plugin api registerCairnPlugin uses, keeping the handlers it registers. */
function pluginApi(projectRoot: string): OpenclawPluginApi & { hooks: Map<string, Handler> } {
  const hooks = new Map<string, Handler>();
  return {
    hooks,
    pluginConfig: { projectRoot },
    on(hook, handler) {
      hooks.set(hook, handler);
    },
  };
}

let temp: TempProject;

beforeEach(async () => {
  temp = await makeTempProject('cairn-openclaw-plugin-');
  const cairn = await openCairn(temp.root, { env: {} });
  await cairn.init();
  await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
  cairn.closeWorking();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('openclaw plugin runtime', () => {
  it('shares sessions between the registrations of one process', async () => {
    // The gateway registers the plugin once at startup (session_start) and
    // again for each agent run (before_prompt_build and the rest).
    const gateway = pluginApi(temp.root);
    const run = pluginApi(temp.root);
    registerCairnPlugin(gateway);
    registerCairnPlugin(run);
    const ctx = { sessionId: 'shared-session-1', sessionKey: 'agent:main:x', agentId: 'main' };
    try {
      await gateway.hooks.get('session_start')?.({ sessionId: ctx.sessionId }, ctx);
      const output = (await run.hooks.get('before_prompt_build')?.(
        { prompt: 'which staging cluster?', messages: [] },
        { ...ctx, runId: 'run-1', workspaceDir: temp.root },
      )) as { prependContext?: string } | undefined;
      // The prompt asks about the cluster: its pack, prepended to it, carries the unit.
      expect(output?.prependContext).toContain('The staging cluster is called kestrel-stage.');
    } finally {
      await gateway.hooks.get('gateway_stop')?.({}, {});
    }
  });
});
