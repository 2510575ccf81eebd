import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import {
  makeTempProject,
  REPOSITORY_LINK_CASES,
  type RepositoryLinkCase,
  snapshotTree,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectInMemory } from './test-client';

/**
 * Links a repository ships under `.cairn/` are never followed, through the
 * MCP tools (Repro A: `memory_add` wrote into another project's daily
 * file; Repro B: `memory_read_head` returned the server's environment
 * through a MEMORY.md linked to /proc/self/environ). Every link kind of
 * the testkit against one victim project: each tool answers INVALID_PATH,
 * nothing of the victim or of the environment comes back, and nothing
 * under the victim's `.cairn/` changes.
 */

const VICTIM_UNIT = 'VICTIM decision: the kestrel database password rotates on Sundays.';
const SECRET = 'hunter2-from-the-environment';

let victim: TempProject;
let victimTree: Record<string, string>;

const open = async (root: string): Promise<Cairn> => {
  const home = join(root, 'home');
  return openCairn(root, { env: { HOME: home, CAIRN_TIMEZONE: 'UTC' }, homeDir: home });
};

beforeAll(async () => {
  victim = await makeTempProject('cairn-victim-');
  const cairn = await open(victim.root);
  await cairn.init();
  expect((await cairn.add({ text: VICTIM_UNIT })).action).toBe('created');
  await cairn.write(
    '# Victim\n\n<!-- cairn:head:start -->\n<!-- cairn:head:end -->\n\nVICTIM notes: kestrel.\n',
  );
  await writeFile(join(victim.root, '.cairn/config.json'), '{}\n');
  const ids = { agentId: 'claude', sessionKey: 'victim-session' };
  await cairn.lifecycle.sessionStart({ ...ids, cwd: victim.root });
  await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
  cairn.closeWorking();
  victimTree = await snapshotTree(join(victim.root, '.cairn'));
  expect(Object.keys(victimTree)).toContain('state/lineage.db');
});
afterAll(() => victim.cleanup());

beforeEach(() => {
  process.env.MY_DB_PASS = SECRET;
});
afterEach(() => {
  delete process.env.MY_DB_PASS;
});

async function evilProject(linkCase: RepositoryLinkCase): Promise<TempProject> {
  const evil = await makeTempProject('cairn-evil-');
  const cairn = await open(evil.root);
  await cairn.init();
  await cairn.add({ text: 'Evil project note: kestrel builds run nightly.' });
  cairn.closeWorking();
  await linkCase.place(evil.root, victim.root);
  return evil;
}

/** The project's settings are read through `.cairn/` too: a linked `.cairn` or config stops the open. */
const OPEN_REFUSED = new Set(['.cairn', '.cairn/config.json']);

describe('links a repository ships under .cairn/ are never followed (MCP)', () => {
  it.each(REPOSITORY_LINK_CASES.map((c) => [c.name, c] as const))(
    '%s: memory_read_head, memory_add, memory_search and memory_context_pack answer INVALID_PATH',
    async (_name, linkCase) => {
      const evil = await evilProject(linkCase);
      try {
        if (OPEN_REFUSED.has(linkCase.path)) {
          await expect(open(evil.root)).rejects.toThrow(
            expect.objectContaining({ code: 'INVALID_PATH' }),
          );
          return;
        }
        const cairn = await open(evil.root);
        const client = await connectInMemory(cairn);
        try {
          const calls = [
            await callTool(client, 'memory_read_head'),
            await callTool(client, 'memory_add', { text: 'A second evil note about kestrel.' }),
            await callTool(client, 'memory_search', { query: 'kestrel' }),
            await callTool(client, 'memory_context_pack', { query: 'kestrel', agentId: 'claude' }),
          ];
          for (const call of calls) {
            expect(call.isError, call.text).toBe(true);
            expect(call.structured.error).toMatchObject({
              code: 'INVALID_PATH',
              message: expect.stringMatching(
                /^Refusing to use .*: it is (a symbolic link|not a regular file)/,
              ),
            });
            expect(call.text).not.toContain('VICTIM');
            expect(call.text).not.toContain(SECRET);
          }
        } finally {
          await client.close();
          cairn.closeWorking();
        }
        expect(await snapshotTree(join(victim.root, '.cairn'))).toEqual(victimTree);
      } finally {
        await evil.cleanup();
      }
    },
    30_000,
  );
});
