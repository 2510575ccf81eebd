import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCairn } from '@cairn/engine';
import { earlierSession, loadHarnessFixtures, makeTempProject, snapshotTree } from '@cairn/testkit';
import type { Plugin } from '@opencode-ai/plugin';
import { describe, expect, it } from 'vitest';
import { CairnPlugin } from './plugin';
import { createCairnHooks, type OpencodeClientLike } from './plugin-hooks';

// The plugin's hooks must fit OpenCode's own plugin type.
const typed: Plugin = CairnPlugin as unknown as Plugin;
void typed;

const fixturesDir = fileURLToPath(new URL('../fixtures/session', import.meta.url));

/** The recorded payloads, in the shapes the plugin's hooks receive. */
interface Recorded {
  properties: { info: { id: string; directory: string } };
  messages: unknown[];
  input: never;
  output: never;
}

async function recorded(hookEvent: string): Promise<Recorded> {
  const fixtures = await loadHarnessFixtures(fixturesDir);
  return fixtures.find((f) => f.hookEvent === hookEvent)!.payload as Recorded;
}

function clientFor(directory: string, messages: unknown[], logs: string[]): OpencodeClientLike {
  return {
    session: {
      get: async ({ path }) => ({ data: { id: path.id, directory } }),
      messages: async () => ({ data: messages }),
    },
    app: { log: async ({ body }) => logs.push(body.message) },
  };
}

async function setup() {
  const project = await makeTempProject('cairn-opencode-plugin-');
  const cairn = await openCairn(project.root, { env: {} });
  await cairn.init();
  await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
  // Session start asks with the thread's state: an earlier OpenCode session named the cluster.
  await earlierSession(cairn.lifecycle, {
    cwd: project.root,
    agentId: 'opencode',
    prompt: 'Deploy the release to kestrel-stage.',
    finalAnswer: 'The release is built; it goes to kestrel-stage tomorrow.',
  });
  cairn.closeWorking();
  const compacted = await recorded('session.compacted');
  const logs: string[] = [];
  const hooks = createCairnHooks(
    { directory: project.root, client: clientFor(project.root, compacted.messages, logs) },
    { env: {} },
  );
  return { project, hooks, logs };
}

describe('the OpenCode plugin hooks', () => {
  it('injects into the session system prompt, captures the session and ends it once per burst', async () => {
    const { project, hooks, logs } = await setup();
    try {
      const created = await recorded('session.created');
      const sessionID = created.properties.info.id;
      created.properties.info.directory = project.root;
      await hooks.event!({ event: created as never });
      const system = { system: ['You are opencode.'] };
      await hooks['experimental.chat.system.transform']!({ sessionID }, system);
      // The unit itself, relevant to the status the earlier session left.
      expect(system.system.join('\n')).toContain('The staging cluster is called kestrel-stage.');
      const other = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']!({ sessionID: 'ses_other' }, other);
      expect(other.system).toEqual([]);

      const message = await recorded('chat.message');
      await hooks['chat.message']!(message.input, message.output);
      const tool = await recorded('tool.execute.after');
      await hooks['tool.execute.after']!(tool.input, tool.output);
      const compacting = { context: [] as string[] };
      await hooks['experimental.session.compacting']!({ sessionID }, compacting);
      await hooks.event!({ event: { type: 'session.compacted', properties: { sessionID } } });
      await hooks.event!({ event: { type: 'session.idle', properties: { sessionID } } });
      // A second idle without activity in between ends nothing.
      await hooks.event!({ event: { type: 'session.idle', properties: { sessionID } } });
      await hooks.dispose!();

      const cairn = await openCairn(project.root, { env: {} });
      const [thread] = cairn.threads('opencode');
      const nodes = thread!.lineage.map((id) => cairn.expand(id, 'opencode').node);
      // The earlier session's summary, and this session's once (two idles, one end).
      expect(nodes.filter((n) => n.kind === 'session_summary')).toHaveLength(2);
      const compaction = nodes.find((n) => n.kind === 'compaction')!;
      expect(compaction.text).toContain('the deploy target is fly.io');
      // The lineage is newest first: this session's summary, then the earlier one's.
      const summary = nodes.find((n) => n.kind === 'session_summary')!;
      const roles = cairn.expand(summary.id, 'opencode').transcript?.entries.map((e) => e.role);
      expect(roles).toEqual(expect.arrayContaining(['user', 'tool']));
      cairn.closeWorking();
      expect(logs).toEqual([]);
    } finally {
      await project.cleanup();
    }
  });

  it('starts a session first met at a prompt, and logs a bad payload instead of throwing', async () => {
    const { project, hooks, logs } = await setup();
    try {
      await hooks['chat.message']!({ sessionID: 'ses_resumed' }, {
        parts: [{ type: 'text', text: 'staging?' }],
      } as never);
      const system = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']!({ sessionID: 'ses_resumed' }, system);
      // The unit itself, relevant to the status the earlier session left.
      expect(system.system.join('\n')).toContain('The staging cluster is called kestrel-stage.');
      await hooks['tool.execute.after']!(
        { tool: '', sessionID: 'ses_resumed', callID: 'c', args: {} },
        {},
      );
      expect(logs.join('\n')).toContain('INVALID_INPUT');
      await hooks.dispose!();
    } finally {
      await project.cleanup();
    }
  });

  it('puts a known fix into the next model request of the session after a failing tool', async () => {
    const { project, hooks, logs } = await setup();
    const bash = (sessionID: string, command: string, output: string) =>
      hooks['tool.execute.after']!({ tool: 'bash', sessionID, callID: 'c', args: { command } }, {
        title: command,
        output,
        metadata: {},
      } as never);
    const failure = (dir: string) =>
      `${dir}/src/db.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.`;
    try {
      for (const sessionID of ['ses_one', 'ses_two']) {
        await hooks['chat.message']!({ sessionID }, {
          parts: [{ type: 'text', text: 'build it' }],
        } as never);
      }
      await bash('ses_one', 'pnpm tsc', failure('/w/one'));
      await hooks['tool.execute.after']!(
        { tool: 'edit', sessionID: 'ses_one', callID: 'c', args: { filePath: '/w/one/src/db.ts' } },
        { title: 'edit', output: 'Edit applied successfully.', metadata: {} } as never,
      );
      await bash('ses_one', 'pnpm tsc', '');
      await bash('ses_two', 'pnpm tsc', failure('/w/two'));
      const system = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']!({ sessionID: 'ses_two' }, system);
      expect(system.system.join('\n')).toContain('Known fix for this error');
      expect(system.system.join('\n')).toContain('edited `/w/one/src/db.ts`');
      await hooks.dispose!();
      expect(logs).toEqual([]);
    } finally {
      await project.cleanup();
    }
  });

  it('does nothing in a folder without .cairn/', async () => {
    const project = await makeTempProject('cairn-opencode-plugin-');
    try {
      await mkdir(join(project.root, 'src'));
      const before = await snapshotTree(project.root);
      const hooks = await CairnPlugin({
        directory: join(project.root, 'src'),
        client: clientFor(project.root, [], []),
      });
      expect(hooks).toEqual({});
      expect(await snapshotTree(project.root)).toEqual(before);
    } finally {
      await project.cleanup();
    }
  });
});
