import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openCairn, openLifecycleHost } from '@cairn/engine';
import { makeTempProject } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createOpenclawDeliverState } from './deliver';
import { createPluginRuntime, type SharedPluginState } from './plugin-runtime';

describe('the OpenClaw plugin with LanceDB configured', () => {
  it('recalls through LanceDB (the package loaded by openCairn), with no fallback warning', async () => {
    const project = await makeTempProject('cairn-openclaw-lancedb-');
    const setup = await openCairn(project.root, { env: {} });
    await setup.init();
    await setup.add({ text: 'The staging cluster is called kestrel-stage.' });
    setup.closeWorking();
    // Configured after the unit was written: only the plugin's own opening meets LanceDB.
    await writeFile(
      join(project.root, '.cairn', 'config.json'),
      JSON.stringify({ memoryBackendType: 'lancedb' }),
    );
    const warned: string[] = [];
    const shared: SharedPluginState = {
      deliver: createOpenclawDeliverState(),
      host: openLifecycleHost({ keep: 'open' }),
      rootOfSession: new Map(),
    };
    const runtime = createPluginRuntime(
      { projectRoot: project.root },
      { logger: { warn: (message) => warned.push(message) }, on: () => undefined },
      shared,
    );
    const ctx = { sessionId: 'lancedb-session', sessionKey: 'agent:main:x', agentId: 'main' };
    try {
      await runtime.handle('session_start', { sessionId: ctx.sessionId }, ctx);
      const output = (await runtime.handle(
        'before_prompt_build',
        { prompt: 'which staging cluster?', messages: [] },
        { ...ctx, runId: 'run-1', workspaceDir: project.root },
      )) as { prependContext?: string } | undefined;
      // The prompt asks about the cluster: its pack, prepended to it, carries the unit.
      expect(output?.prependContext).toContain('The staging cluster is called kestrel-stage.');
      expect(existsSync(join(project.root, '.cairn', 'index', 'lancedb'))).toBe(true);
      // Opened once and kept: the host answers with the project the hooks used.
      expect(shared.host.roots()).toEqual([project.root]);
      const cairn = await shared.host.open(project.root, { ...process.env });
      expect(cairn.backend.type).toBe('lancedb');
      expect(cairn.warnings).toEqual([]);
      expect(warned).toEqual([]);
    } finally {
      await runtime.close();
      await project.cleanup();
    }
  });
});
