import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
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
    const setup = openCairn(project.root, { env: {} });
    await setup.init();
    await setup.add({ text: 'The staging cluster is called kestrel-stage.' });
    setup.closeWorking();
    // Configured after the unit was written: only the plugin's own opening meets LanceDB.
    await writeFile(
      join(project.root, '.cairn', 'config.json'),
      JSON.stringify({ memoryBackendType: 'lancedb' }),
    );
    const logs: string[] = [];
    const opened: Cairn[] = [];
    const hooks = createCairnHooks(
      { directory: project.root, client: clientFor(project.root, logs) },
      // The plugin's own opening, kept so the test can read its warnings.
      {
        env: {},
        open: (root) => {
          const cairn = openCairn(root, { env: {} });
          opened.push(cairn);
          return cairn;
        },
      },
    );
    try {
      await hooks['chat.message']!({ sessionID: 'ses_lancedb' }, {
        parts: [{ type: 'text', text: 'which staging cluster?' }],
      } as never);
      const system = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']!({ sessionID: 'ses_lancedb' }, system);
      expect(system.system.join('\n')).toContain('kestrel-stage');
      expect(existsSync(join(project.root, '.cairn', 'index', 'lancedb'))).toBe(true);
      expect(opened.map((cairn) => cairn.backend.type)).toEqual(['lancedb']);
      expect(opened[0]!.warnings).toEqual([]);
      expect(logs).toEqual([]);
    } finally {
      await hooks.dispose!();
      await project.cleanup();
    }
  });
});
