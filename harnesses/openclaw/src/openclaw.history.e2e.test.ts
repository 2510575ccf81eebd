import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { listFixPatterns, openCairn } from '@cairn/engine';
import {
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs scripts, shared with the capture script
import { buildSqliteForNode24 } from '../scripts/build-sqlite-node24.mjs';
// @ts-expect-error: plain .mjs scripts, shared with the capture script
import * as session from '../scripts/openclaw-session.mjs';

/*
 * Task history end to end with the real `openclaw` CLI:
 * session 1 runs `node main.js`, which really fails (a missing module),
 * writes the module and runs it again. main.js then moves the require to
 * another line and the module goes; session 2 meets the same error, and
 * since after_tool_call cannot inject, its next prompt carries the fix.
 */
const cli = resolve(import.meta.dirname, '..', '..', '..', 'packages', 'cli', 'dist', 'bin.cjs');
const missing = !session.openclawAvailable()
  ? 'the pinned openclaw CLI or the Node 24 binary (@cairn/node24) is not installed'
  : !existsSync(cli)
    ? `${cli} is not built`
    : undefined;
const WRITE =
  'mkdir -p lib && printf \'exports.greet = (name) => "hello " + name\\n\' > lib/greet.js';
const FOLLOW_UP = 'Anything else to know?';

describe.skipIf(missing !== undefined)(
  'openclaw task history e2e (real CLI, scripted model)',
  () => {
    let temp: TempProject;
    let server: ModelServer;
    let project: string;
    let home: string;
    let env: NodeJS.ProcessEnv;
    const lifecycleErrors = () =>
      readFile(join(project, '.cairn/state/lifecycle-errors.jsonl'), 'utf8').catch(() => 'none');

    beforeAll(async () => {
      const binding = buildSqliteForNode24({ log: () => {} }) as string;
      temp = await makeTempProject('cairn-openclaw-history-');
      project = join(temp.root, 'project');
      home = join(temp.root, 'home');
      await mkdir(project, { recursive: true });
      await writeFile(
        join(project, 'main.js'),
        "const { greet } = require('./lib/greet');\nconsole.log(greet('cairn'));\n",
      );
      const seed = await openCairn(project, { env: {} });
      await seed.init();
      seed.closeWorking();
      // Each new conversation replays the same script: run, write the module, run again.
      server = await startModelServer({
        text: 'Done.',
        toolCalls: [
          { tool: /^exec$/, input: { command: 'node main.js' }, afterResults: 0 },
          { tool: /^exec$/, input: { command: WRITE }, afterResults: 1 },
          { tool: /^exec$/, input: { command: 'node main.js' }, afterResults: 2 },
        ],
      });
      await session.writeOpenclawConfig(home, { modelUrl: server.url, workspace: project });
      await mkdir(join(temp.root, 'bin'));
      await symlink(cli, join(temp.root, 'bin', 'cairn'));
      env = {
        ...process.env,
        PATH: `${join(temp.root, 'bin')}${delimiter}${process.env.PATH}`,
        HOME: home,
        CAIRN_SQLITE_BINDING: binding,
        // A cold first plane on a loaded CI machine: room beyond the default 2 s.
        CAIRN_MEMORY_PLANE_TIMEOUT_MS: '10000',
      };
      const installed = spawnSync(process.execPath, [cli, 'install', 'openclaw'], {
        cwd: project,
        env,
        encoding: 'utf8',
      });
      if (installed.status !== 0) throw new Error(`cairn install openclaw: ${installed.stderr}`);
    }, 600_000);

    afterAll(async () => {
      await server?.close();
      await temp?.cleanup();
    });

    it('learns a fix in one session and carries it into the next prompt after the same failure', {
      timeout: 600_000,
    }, async () => {
      await session.driveSession({
        home,
        cwd: project,
        env,
        sessionKey: 'agent:main:history-1',
        message: 'Run the app and fix it if it fails.',
      });
      const seen = server.requests.map((r) => r.text).join('\n');
      expect(seen).toContain("Cannot find module './lib/greet'");
      expect(seen).toContain('hello cairn');
      const [pattern] = listFixPatterns(project);
      expect(pattern, await lifecycleErrors()).toMatchObject({
        state: 'candidate',
        commandFamily: 'node',
        steps: [{ kind: 'run', key: 'run:mkdir+printf' }],
      });

      // The same error from another line, with the module gone again.
      await writeFile(
        join(project, 'main.js'),
        "'use strict';\n\n// the app's entry\nconst { greet } = require('./lib/greet');\nconsole.log(greet('cairn'));\n",
      );
      await rm(join(project, 'lib'), { recursive: true, force: true });
      await session.driveSession({
        home,
        cwd: project,
        env,
        sessionKey: 'agent:main:history-2',
        message: 'Run the app again.',
        followUp: FOLLOW_UP,
      });
      const followUp = server
        .requestsContaining(FOLLOW_UP)
        .find((r) => r.text.includes('Known fix for this error'));
      expect(followUp, await lifecycleErrors()).toBeDefined();
      // The post-tool profile's pack: the candidate fix, named with its pattern and signature.
      expect(followUp!.text).toContain(
        'Candidate fix (not verified yet) for the error quoted below',
      );
      expect(followUp!.text).toContain(`pattern ${pattern!.id} signature ${pattern!.signature}`);
      // Session 2 followed the pattern (write the module, run again) in another session: verified.
      expect(listFixPatterns(project)[0]).toMatchObject({
        id: pattern!.id,
        state: 'verified',
        applied: 1,
        succeeded: 2,
      });
    });
  },
);
