import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listFixPatterns } from '@cairn/engine';
import { type ModelServer, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './claude-env.fixture';

/*
 * Task history end to end with the real `claude` CLI:
 * session 1 runs a command that really fails (a missing module), writes
 * the module, and runs the command again; session 2 meets the same error
 * from another folder and line, and the model request that follows the
 * failing tool call carries the fix pattern session 1 taught.
 */

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
const TIMEOUT = 240_000;

const skip = !existsSync(CLAUDE)
  ? `the pinned Claude Code CLI is missing (${CLAUDE}); run pnpm install`
  : !existsSync(CLI)
    ? `the cairn CLI is not built (${CLI}); build packages/cli`
    : undefined;

let base: string;
let root: string;
let home: string;
const servers: ModelServer[] = [];

async function claudeWith(server: ModelServer, prompt: string) {
  const env = claudeEnv({ home, modelUrl: server.url, pathDirs: [join(base, 'bin')] });
  const { stdout } = await run(
    CLAUDE,
    ['-p', prompt, '--output-format', 'json', '--allowedTools', 'Bash', 'Write'],
    { cwd: root, env, timeout: TIMEOUT, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as { is_error: boolean; session_id: string };
}

const lifecycleErrors = () =>
  readFile(join(root, '.cairn/state/lifecycle-errors.jsonl'), 'utf8').catch(() => 'none logged');

describe.skipIf(skip !== undefined)(
  `claude-code task history e2e${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    beforeAll(async () => {
      base = realpathSync(await mkdtemp(join(tmpdir(), 'cairn-cc-history-')));
      root = join(base, 'project');
      home = join(base, 'home');
      await mkdir(join(root, 'tool'), { recursive: true });
      await mkdir(home, { recursive: true });
      await mkdir(join(base, 'bin'));
      await symlink(CLI, join(base, 'bin', 'cairn'));
      // Two entry points that need a module nobody wrote yet, at different lines.
      await writeFile(
        join(root, 'main.js'),
        "const { greet } = require('./lib/greet');\nconsole.log(greet('cairn'));\n",
      );
      await writeFile(
        join(root, 'tool/main.js'),
        "'use strict';\n\n// the tool's entry\nconst { greet } = require('./lib/greet');\nconsole.log(greet('tool'));\n",
      );
      await run('git', ['init', '-q', root]);
      const env = claudeEnv({
        home,
        modelUrl: 'http://127.0.0.1:9',
        pathDirs: [join(base, 'bin')],
      });
      await run(process.execPath, [CLI, 'init'], { cwd: root, env });
      await run(process.execPath, [CLI, 'install', 'claude-code', '--scope', 'project'], {
        cwd: root,
        env,
      });
      await writeFile(
        join(home, '.claude.json'),
        JSON.stringify({ projects: { [root]: { hasTrustDialogAccepted: true } } }),
      );
    }, TIMEOUT);

    afterAll(async () => {
      for (const server of servers) await server.close();
      if (base) await rm(base, { recursive: true, force: true });
    });

    it('learns a fix in one session and injects it after the same failure in the next', {
      timeout: TIMEOUT,
    }, async () => {
      const first = await startModelServer({
        text: 'Fixed: lib/greet.js was missing.',
        toolCalls: [
          { tool: /^Bash$/, input: { command: 'node main.js' }, afterResults: 0 },
          {
            tool: /^Write$/,
            input: {
              file_path: join(root, 'lib/greet.js'),
              content: "exports.greet = (name) => 'hello ' + name;\n",
            },
            afterResults: 1,
          },
          { tool: /^Bash$/, input: { command: 'node main.js' }, afterResults: 2 },
        ],
      });
      servers.push(first);
      const session1 = await claudeWith(first, 'Run the app and fix it if it fails.');
      expect(session1.is_error, await lifecycleErrors()).toBe(false);
      // The command really failed, then really passed.
      const results = first.requests.map((r) => r.text).join('\n');
      expect(results).toContain("Cannot find module './lib/greet'");
      expect(results).toContain('hello cairn');
      const [pattern] = listFixPatterns(root);
      expect(pattern, await lifecycleErrors()).toMatchObject({
        state: 'candidate',
        commandFamily: 'node',
        stepsKey: 'edit',
        steps: [{ kind: 'edit', detail: join(root, 'lib/greet.js') }],
      });

      const second = await startModelServer({
        text: 'Noted the known fix.',
        toolCalls: [{ tool: /^Bash$/, input: { command: 'node tool/main.js' }, afterResults: 0 }],
      });
      servers.push(second);
      const session2 = await claudeWith(second, 'Run the tool.');
      expect(session2.is_error).toBe(false);
      const after = second.requests.filter((r) =>
        r.text.includes("Cannot find module './lib/greet'"),
      );
      expect(after.length, await lifecycleErrors()).toBeGreaterThan(0);
      const injected = after.find((r) => r.text.includes('Known fix for this error'));
      expect(injected, await lifecycleErrors()).toBeDefined();
      // A failed Bash call fires PostToolUseFailure, whose additionalContext Claude Code forwards.
      expect(injected!.text).toContain('PostToolUseFailure:Bash hook additional context');
      // The post-tool profile's pack: the candidate fix, named with its pattern and signature.
      expect(injected!.text).toContain(
        'Candidate fix (not verified yet) for the error quoted below',
      );
      expect(injected!.text).toContain(`pattern ${pattern!.id} signature ${pattern!.signature}`);
      expect(injected!.text).toContain(`edited \`${join(root, 'lib/greet.js')}\``);
      // Shown, not applied: session 2 did not run the pattern's steps.
      expect(listFixPatterns(root)[0]).toMatchObject({ id: pattern!.id, applied: 0 });
    });
  },
);
