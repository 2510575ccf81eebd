import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodexHarness } from './codex-harness';
import { CODEX_HOOK_EVENTS } from './hook-payloads';
import { hookTrustHash } from './hook-trust';
import { codexAvailable, startAppServer } from './testing/app-server-client';

interface HookMetadata {
  key: string;
  command?: string;
  currentHash: string;
  trustStatus: string;
  source: string;
}

const available = codexAvailable();
const harness = createCodexHarness();

describe('hookTrustHash', () => {
  it('matches a hash Codex 0.169 reported through hooks/list', () => {
    expect(
      hookTrustHash({ event: 'PostToolUse', matcher: '*', command: 'echo hi', timeoutSec: 5 }),
    ).toBe('sha256:aba80b628b8e9fb619b8675003571d4cb5abd2a0950ba484e549dc3ddbe75b98');
    expect(hookTrustHash({ event: 'UserPromptSubmit', command: 'echo p' })).toBe(
      'sha256:81448bb358e8a804f072f281fee75f40510dbc678b6e9b3a1791b159f1f17b87',
    );
  });
});

describe.skipIf(!available)(
  'hook trust as Codex itself sees it (codex app-server hooks/list)',
  () => {
    let temp: TempProject;
    beforeEach(async () => {
      temp = await makeTempProject('cairn-codex-trust-');
    });
    afterEach(async () => temp.cleanup());

    async function cairnHooks(scope: 'user' | 'project'): Promise<HookMetadata[]> {
      const home = join(temp.root, 'home');
      const codexHome = join(home, '.codex');
      const project = join(temp.root, 'project');
      await mkdir(codexHome, { recursive: true });
      await mkdir(project, { recursive: true });
      // The user's own hook comes first, so Cairn's group index is not 0 everywhere.
      await writeFile(
        join(codexHome, 'hooks.json'),
        JSON.stringify({
          hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'true' }] }] },
        }),
      );
      if (scope === 'project') {
        await writeFile(
          join(codexHome, 'config.toml'),
          `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`,
        );
      }
      await harness.install({
        scope,
        projectRoot: project,
        homeDir: home,
        dryRun: false,
        cairnCommand: [process.execPath, '/opt/cairn bin/bin.js'],
        env: {},
      });
      const server = await startAppServer({ HOME: home, CODEX_HOME: codexHome }, project);
      try {
        const listed = await server.request<{ data: { hooks: HookMetadata[] }[] }>('hooks/list', {
          cwds: [project],
        });
        return listed.data.flatMap((entry) => entry.hooks);
      } finally {
        await server.close();
      }
    }

    it.each(['user', 'project'] as const)(
      '%s scope: every Cairn hook is trusted, the user’s is not touched',
      async (scope) => {
        const hooks = await cairnHooks(scope);
        const cairn = hooks.filter((hook) => hook.command?.includes(' hook codex '));
        expect(cairn).toHaveLength(CODEX_HOOK_EVENTS.length);
        for (const hook of cairn) expect(hook.trustStatus, hook.key).toBe('trusted');
        expect(new Set(cairn.map((hook) => hook.source))).toEqual(new Set([scope]));
        const mine = hooks.find((hook) => hook.command === 'true');
        expect(mine?.trustStatus).toBe('untrusted');
      },
      60_000,
    );
  },
);
