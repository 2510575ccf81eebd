import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openCairn, openLifecycleHost } from '@cairn/engine';
import { makeTempProject } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createCairnHooks, type OpencodeClientLike } from './plugin-hooks';

function clientFor(directory: string, logs: string[]): OpencodeClientLike {
  return {
    session: {
      get: async ({ path }) => ({ data: { id: path.id, directory } }),
      messages: async () => ({ data: [] }),
    },
    app: { log: async ({ body }) => logs.push(body.message) },
  };
}

describe('the OpenCode plugin with LanceDB configured', () => {
  it('recalls through LanceDB (the package loaded by openCairn), with no fallback warning', async () => {
    const project = await makeTempProject('cairn-opencode-lancedb-');
    const setup = await openCairn(project.root, { env: {} });
    await setup.init();
    await setup.add({ text: 'The staging cluster is called kestrel-stage.' });
    setup.closeWorking();
    // Configured after the unit was written: only the plugin's own opening meets LanceDB.
    await writeFile(
      join(project.root, '.cairn', 'config.json'),
      JSON.stringify({ memoryBackendType: 'lancedb' }),
    );
    const logs: string[] = [];
    // The plugin's own host, kept so the test can read the project it opened.
    const host = openLifecycleHost({ env: {} });
    const hooks = createCairnHooks(
      { directory: project.root, client: clientFor(project.root, logs) },
      { env: {}, host },
    );
    try {
      await hooks['chat.message']!({ sessionID: 'ses_lancedb' }, {
        parts: [{ type: 'text', text: 'which staging cluster?' }],
      } as never);
      const system = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']!({ sessionID: 'ses_lancedb' }, system);
      expect(system.system.join('\n')).toContain('kestrel-stage');
      expect(existsSync(join(project.root, '.cairn', 'index', 'lancedb'))).toBe(true);
      // Opened once, kept: the host answers with the project the hooks used.
      expect(host.roots()).toEqual([project.root]);
      const opened = await host.open(project.root);
      expect(opened.backend.type).toBe('lancedb');
      expect(opened.warnings).toEqual([]);
      expect(logs).toEqual([]);
    } finally {
      await hooks.dispose!();
      await project.cleanup();
    }
  });
});
