import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cairn, openCairn } from '@cairn/engine';
import { loadHarnessFixtures, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenclawDeliver, type OpenclawPromptBuildOutput } from './deliver';

/**
 * `cairn pack --profile prompt-submit "<prompt>"` prints exactly what the
 * OpenClaw plugin prepends to a prompt (docs/PACKS.md "Profiles"): the
 * recorded `session_start` and `before_prompt_build` payloads go through
 * the plugin's delivery, in process, and `prependContext` equals the built
 * CLI's preview taken just before the prompt.
 */

const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/session', import.meta.url));

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  project = await makeTempProject('cairn-openclaw-parity-');
  await writeFile(
    join(project.root, 'README.md'),
    '# Shop\n\n## Deploy\n\nThe deploy target is kestrel-prod; deploys go through `kestrel ship`.\n',
  );
  cairn = await openCairn(project.root, { env: {} });
  await cairn.init();
  await cairn.add({ text: 'The deploy target is kestrel-prod, behind the eu gateway.' });
  await cairn.add({ text: 'LaunchDarkly flags are owned by the platform team.' });
});
afterEach(async () => {
  cairn.closeWorking();
  await project.cleanup();
});

function preview(session: string, query: string): string {
  const run = spawnSync(
    process.execPath,
    [CLI, 'pack', '--profile', 'prompt-submit', '--agent', 'openclaw', '--session', session, query],
    {
      cwd: project.root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: join(project.root, 'home'), CAIRN_HOOK_SERVER: 'off' },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('cairn pack --profile equals the OpenClaw plugin', () => {
  it('for a recorded before_prompt_build, byte for byte', async () => {
    const fixtures = await loadHarnessFixtures(FIXTURES);
    const payload = (hookEvent: string) =>
      structuredClone(fixtures.find((f) => f.hookEvent === hookEvent)!.payload) as {
        event: Record<string, unknown>;
        ctx: Record<string, unknown> & { sessionId: string };
      };
    const deliver = createOpenclawDeliver();
    const context = { lifecycle: cairn.lifecycle, env: {} };
    const start = payload('session_start');
    await deliver({ hookEvent: 'session_start', payload: start }, context);
    const build = payload('before_prompt_build');
    build.ctx.workspaceDir = project.root;
    const prompt = 'what is the deploy target, and how do deploys go?';
    build.event.prompt = prompt;
    const expected = preview(build.ctx.sessionId, prompt);
    expect(expected).toContain('kestrel-prod');
    const built = await deliver({ hookEvent: 'before_prompt_build', payload: build }, context);
    expect((built.output as OpenclawPromptBuildOutput).prependContext).toBe(expected);
  });
});
