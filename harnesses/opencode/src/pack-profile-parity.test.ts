import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCairn } from '@cairn/engine';
import { loadHarnessFixtures, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCairnHooks, type OpencodeClientLike } from './plugin-hooks';

/**
 * `cairn pack --profile prompt-submit "<prompt>"` prints exactly what the
 * OpenCode plugin injects for that prompt (docs/PACKS.md "Profiles"): the
 * recorded `chat.message` payload goes through the plugin's own hooks, in
 * process, and the system lines it adds equal the built CLI's preview.
 */

const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/session', import.meta.url));

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject('cairn-opencode-parity-');
});
afterEach(() => project.cleanup());

function preview(profile: string, session: string, query: string): string {
  const run = spawnSync(
    process.execPath,
    [CLI, 'pack', '--profile', profile, '--agent', 'opencode', '--session', session, query],
    {
      cwd: project.root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: join(project.root, 'home'), CAIRN_HOOK_SERVER: 'off' },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

async function seed() {
  await writeFile(
    join(project.root, 'README.md'),
    '# Shop\n\n## Deploy\n\nThe deploy target is fly.io; deploys go through `fly deploy`.\n',
  );
  const cairn = await openCairn(project.root, { env: {} });
  await cairn.init();
  await cairn.add({ text: 'The deploy target is fly.io, region ams.' });
  await cairn.add({ text: 'LaunchDarkly flags are owned by the platform team.' });
  cairn.closeWorking();
}

const client: OpencodeClientLike = {
  session: {
    get: async ({ path }) => ({ data: { id: path.id } }),
    messages: async () => ({ data: [] }),
  },
};

describe('cairn pack --profile equals the OpenCode plugin', () => {
  it('for a recorded chat.message, byte for byte', async () => {
    await seed();
    const fixtures = await loadHarnessFixtures(FIXTURES);
    const created = fixtures.find((f) => f.hookEvent === 'session.created')!.payload as {
      properties: { info: { id: string; directory: string } };
    };
    created.properties.info.directory = project.root;
    const session = created.properties.info.id;
    const message = fixtures.find((f) => f.hookEvent === 'chat.message')!.payload as {
      input: { sessionID: string };
      output: { parts: { type: string; text: string }[] };
    };
    const hooks = createCairnHooks({ directory: project.root, client }, { env: {} });
    try {
      await hooks.event!({ event: created as never });
      const prompt = 'what is the deploy target, and how do I deploy?';
      message.output.parts[0]!.text = prompt;
      const expected = preview('prompt-submit', session, prompt);
      expect(expected).toContain('fly.io');
      const before = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']!({ sessionID: session }, before);
      await hooks['chat.message']!(message.input, message.output as never);
      const after = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']!({ sessionID: session }, after);
      // The prompt's lines follow the session start's: they are the last line added.
      expect(after.system.slice(before.system.length)).toEqual([expected]);
    } finally {
      await hooks.dispose!();
    }
  });
});
