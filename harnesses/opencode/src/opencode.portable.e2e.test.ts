import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { openCairn } from '@cairn/engine';
import { type ModelServer, snapshotTree, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createSandbox,
  installInProject,
  type OpencodeServer,
  opencodeBinary,
  runPrompt,
  type Sandbox,
  startServer,
} from './opencode-sandbox';

/**
 * The committed files (opencode.json and the `.opencode/plugin/cairn.js`
 * loader) name `cairn` and no path: a project installed here and copied
 * with `cp -a` works in the copy as it is, and the plugin's and MCP
 * server's writes land in the copy, not the original.
 */
const run = promisify(execFile);
const binary = opencodeBinary();
if (!binary)
  console.warn(
    'skipping the OpenCode portable e2e: the pinned opencode-ai binary is not installed',
  );

const SEED = 'The OpenCode project names its staging cluster kestrel-stage.';
const FACT = 'OpenCode portable e2e: the copy keeps its own memory.';
/** Added to the copy only: its injection shows the plugin read the copy's memory. */
const COPY_ONLY = 'Only the moved copy knows its release train is called heron.';
const COMMITTED = ['opencode.json', '.opencode/plugin/cairn.js'];
const TIMEOUT = 180_000;
const AGENT = 'opencode';

describe.skipIf(!binary)('OpenCode e2e: a moved project', () => {
  let sandbox: Sandbox;
  let model: ModelServer;
  let server: OpencodeServer | undefined;

  const memoryOf = async (root: string) => {
    const memory = openCairn(root, { env: {} });
    try {
      const units = (await memory.list()).map((unit) => unit.text);
      const lineage = memory.threads(AGENT).flatMap((thread) => thread.lineage);
      const kinds = lineage.map((id) => memory.expand(id, AGENT).node.kind);
      return { units, kinds };
    } finally {
      memory.closeWorking();
    }
  };

  beforeAll(async () => {
    sandbox = await createSandbox();
    model = await startModelServer({
      text: 'Noted.',
      toolCalls: [{ tool: /memory_add/, input: { text: FACT, category: 'decision' } }],
    });
    await installInProject(sandbox, model.url, [SEED]);
  }, TIMEOUT);

  afterAll(async () => {
    await server?.stop();
    await model?.close();
    await sandbox?.cleanup();
  });

  it('after cp -a, injection and writes go to the copy, not the original', {
    timeout: TIMEOUT,
  }, async () => {
    const original = sandbox.project;
    for (const name of COMMITTED) {
      const text = await readFile(join(original, name), 'utf8');
      expect(text).toContain('cairn');
      expect(text).not.toContain(dirname(sandbox.home));
    }
    const moved = join(dirname(original), 'project-moved');
    await run('cp', ['-a', original, moved]);
    const added = openCairn(moved, { env: {} });
    await added.add({ text: COPY_ONLY });
    added.closeWorking();
    const before = await snapshotTree(join(original, '.cairn'));
    const copy: Sandbox = { ...sandbox, project: moved };
    server = await startServer(copy);
    await runPrompt(copy, server, 'Please remember this about the project.');
    // Session start: the copy's memory reached the model's system prompt.
    expect(model.requestsContaining(COPY_ONLY).length).toBeGreaterThan(0);
    // memory_add through the MCP server and the idle session end wrote to the copy.
    await vi.waitFor(
      async () => {
        const { units, kinds } = await memoryOf(moved);
        expect(units).toContain(FACT);
        expect(kinds).toContain('session_summary');
      },
      { timeout: 60_000, interval: 200 },
    );
    await server.stop();
    server = undefined;
    expect(await snapshotTree(join(original, '.cairn'))).toEqual(before);
    const { units, kinds } = await memoryOf(original);
    expect(units).not.toContain(FACT);
    expect(kinds).toEqual([]);
  });
});
