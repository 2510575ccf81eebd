import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptHookCoverage } from './prompt-hook-coverage';
import { serverHookCoverage } from './server-hook-coverage';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI_DIST = join(ROOT, 'packages/cli/dist');

/**
 * Code a prompt has no use for: the signature rules and fix learning of a
 * failed tool call, a session end's run digest, maintenance, `cairn
 * doctor`'s checks and Beads' readers (no Beads in the project). Each
 * loads at its own point of use; a prompt hook process must not evaluate
 * any of it (no timing here: `hook-path` and the bench measure how far a
 * prompt travels).
 */
const NOT_FOR_A_PROMPT = [
  // The package-manager rule's words are the one part the pack's history plane reads.
  /^packages\/engine\/src\/history\/rules\/(?!package-manager-rules\.ts$)/,
  /^packages\/engine\/src\/history\/(error-signature|failure-signature|build-run-digest)\.ts$/,
  /^packages\/engine\/src\/history\/(history-recorder|tool-outcome-recorder)\.ts$/,
  /^packages\/engine\/src\/maintenance\//,
  /^packages\/engine\/src\/doctor\//,
  /^packages\/engine\/src\/packs\/(planning-graph|beads-cli|beads-export|beads-export-index)\.ts$/,
];

describe.skipIf(!existsSync(join(CLI_DIST, 'hook-main.cjs')))(
  'the prompt hook path (built CLI; skipped until `pnpm build` wrote packages/cli/dist)',
  () => {
    it('answers a prompt without evaluating code only other events and commands use', () => {
      const { called, setUp, event, reply } = promptHookCoverage(CLI_DIST);
      expect(reply).toContain('The deploy key lives in the team vault.');
      const ran = [...setUp].map((file) => relative(ROOT, file));
      // The pack was built: its files ran.
      expect(ran).toContain('packages/engine/src/packs/retrieve-context-pack.ts');
      // The event's own path: the payload's schema, the pack, the reply; all of it part of the run.
      const onPath = [...event].map((file) => relative(ROOT, file));
      expect(onPath).toEqual(
        expect.arrayContaining([
          'harnesses/claude-code/src/hook-payloads.ts',
          'packages/engine/src/packs/retrieve-context-pack.ts',
          'packages/engine/src/lifecycle-host.ts',
        ]),
      );
      expect(onPath.filter((file) => !ran.includes(file))).toEqual([]);
      const calledFiles = [...called].map((file) => relative(ROOT, file));
      expect(calledFiles.filter((file) => NOT_FOR_A_PROMPT.some((re) => re.test(file)))).toEqual(
        [],
      );
    });

    it('hands a prompt to the hook server without loading the engine, and the server answers it', () => {
      const { client, server, reply } = serverHookCoverage(CLI_DIST);
      expect(reply).toContain('The deploy key lives in the team vault.');
      const packagesOf = (files: Set<string>) =>
        new Set([...files].map((file) => relative(ROOT, file).split('/').slice(0, 2).join('/')));
      // The launcher, its hook client and the per-user path checks of its socket; no lifecycle.
      expect([...packagesOf(client)].sort()).toEqual(['packages/cli', 'packages/core']);
      expect([...server].map((file) => relative(ROOT, file))).toContain(
        'packages/engine/src/packs/retrieve-context-pack.ts',
      );
      // The project is open in the server: its event opens no database and asks the driver nothing again.
      expect([...packagesOf(server)]).not.toContain('packages/sqlite');
    });
  },
);
