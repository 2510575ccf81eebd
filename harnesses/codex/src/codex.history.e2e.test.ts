import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listFixPatterns } from '@cairn/engine';
import {
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexAvailable } from './testing/app-server-client';
import { makeCodexHome } from './testing/codex-home';
import { describeRun, runCodex } from './testing/run-codex';

/*
 * Task history end to end with the real `codex` CLI:
 * session 1 runs a command that really fails (a missing module), writes
 * the module and runs the command again; session 2 meets the same error
 * from another folder and line, and the request after that tool call
 * carries the fix pattern (PostToolUse additionalContext).
 */
const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const skipReason = codexAvailable() ? undefined : 'the pinned Codex CLI is missing';

describe.skipIf(skipReason !== undefined)(
  'codex task history e2e (real CLI, scripted model)',
  () => {
    let temp: TempProject;
    let project: string;
    const servers: ModelServer[] = [];

    let env: Record<string, string>;
    // One CODEX_HOME for both sessions: its config.toml holds the hook trust the install
    // wrote, so only the provider's base_url is rewritten for each session's server.
    const codexWith = async (server: ModelServer, prompt: string) => {
      const config = join(env.CODEX_HOME!, 'config.toml');
      const text = await readFile(config, 'utf8');
      await writeFile(config, text.replace(/^base_url = ".*"$/m, `base_url = "${server.url}/v1"`));
      const args = [
        'exec',
        '-c',
        'sandbox_mode="workspace-write"',
        '--skip-git-repo-check',
        '--json',
        prompt,
      ];
      const result = await runCodex(args, { cwd: project, env, timeoutMs: 150_000 });
      expect(result.code, describeRun(args, result)).toBe(0);
    };
    const lifecycleErrors = () =>
      readFile(join(project, '.cairn/state/lifecycle-errors.jsonl'), 'utf8').catch(() => 'none');

    beforeAll(async () => {
      temp = await makeTempProject('cairn-codex-history-');
      project = join(temp.root, 'project');
      await mkdir(join(project, 'tool'), { recursive: true });
      await mkdir(join(temp.root, 'bin'));
      await symlink(CLI, join(temp.root, 'bin', 'cairn'));
      await writeFile(
        join(project, 'main.js'),
        "const { greet } = require('./lib/greet');\nconsole.log(greet('cairn'));\n",
      );
      await writeFile(
        join(project, 'tool/main.js'),
        "'use strict';\n\n// the tool's entry\nconst { greet } = require('./lib/greet');\nconsole.log(greet('tool'));\n",
      );
      env = await makeCodexHome({
        home: join(temp.root, 'home'),
        modelUrl: 'http://127.0.0.1:9',
        trusted: [project],
        pathDirs: [join(temp.root, 'bin')],
      });
      const cairn = (...args: string[]) =>
        run(process.execPath, [CLI, ...args, '--root', project], {
          env: { ...process.env, ...env },
        });
      await cairn('init');
      await cairn('install', 'codex');
    }, 60_000);

    afterAll(async () => {
      for (const server of servers) await server.close();
      if (process.env.CAIRN_E2E_KEEP) console.log('kept', temp.root);
      else await temp?.cleanup();
    });

    it('learns a fix in one session and injects it after the same failure in the next', {
      timeout: 360_000,
    }, async () => {
      const write =
        'mkdir -p lib && printf \'exports.greet = (name) => "hello " + name\\n\' > lib/greet.js';
      const first = await startModelServer({
        text: 'Fixed.',
        toolCalls: [
          { tool: /^exec_command$/, input: { cmd: 'node main.js' }, afterResults: 0 },
          { tool: /^exec_command$/, input: { cmd: write }, afterResults: 1 },
          { tool: /^exec_command$/, input: { cmd: 'node main.js' }, afterResults: 2 },
        ],
      });
      servers.push(first);
      await codexWith(first, 'Run the app and fix it if it fails.');
      const seen = first.requests.map((r) => r.text).join('\n');
      expect(seen).toContain("Cannot find module './lib/greet'");
      expect(seen).toContain('hello cairn');
      const [pattern] = listFixPatterns(project);
      expect(pattern, await lifecycleErrors()).toMatchObject({
        state: 'candidate',
        commandFamily: 'node',
        steps: [{ kind: 'run', key: 'run:mkdir+printf' }],
      });

      const second = await startModelServer({
        text: 'Noted.',
        toolCalls: [
          { tool: /^exec_command$/, input: { cmd: 'node tool/main.js' }, afterResults: 0 },
        ],
      });
      servers.push(second);
      await codexWith(second, 'Run the tool.');
      const injected = second.requests.find((r) => r.text.includes('Known fix for this error'));
      expect(injected, await lifecycleErrors()).toBeDefined();
      // The post-tool profile's pack: the candidate fix, named with its pattern and signature.
      expect(injected!.text).toContain(
        'Candidate fix (not verified yet) for the error quoted below',
      );
      expect(injected!.text).toContain(`pattern ${pattern!.id} signature ${pattern!.signature}`);
      // Shown, not applied: session 2 did not run the pattern's steps.
      expect(listFixPatterns(project)[0]).toMatchObject({ id: pattern!.id, applied: 0 });
    });
  },
);
