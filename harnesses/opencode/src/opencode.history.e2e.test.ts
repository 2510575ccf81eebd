import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listFixPatterns } from '@cairn/engine';
import { type ModelServer, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSandbox,
  installInProject,
  opencodeBinary,
  providerConfig,
  runPrompt,
  type Sandbox,
  startServer,
} from './testing/opencode-sandbox';

/*
 * Task history end to end with the real `opencode` CLI:
 * session 1 runs a command that really fails (a missing module), writes
 * the module and runs the command again; session 2 meets the same error
 * from another folder and line, and the model request that follows the
 * failing tool call carries the fix pattern in its system prompt.
 */
const binary = opencodeBinary();
const TIMEOUT = 240_000;

describe.skipIf(!binary)('OpenCode task history e2e', () => {
  let sandbox: Sandbox;
  const servers: ModelServer[] = [];
  const lifecycleErrors = () =>
    readFile(join(sandbox.project, '.cairn/state/lifecycle-errors.jsonl'), 'utf8').catch(
      () => 'none',
    );
  /** One prompt through `opencode serve`, started against its own scripted model server. */
  async function session(server: ModelServer, prompt: string) {
    const config = join(sandbox.project, 'opencode.json');
    const current = JSON.parse(await readFile(config, 'utf8'));
    const provider = providerConfig(server.url) as { provider: unknown };
    await writeFile(
      config,
      `${JSON.stringify({ ...current, provider: provider.provider }, null, 2)}\n`,
    );
    const served = await startServer(sandbox);
    try {
      await runPrompt(sandbox, served, prompt);
    } finally {
      await served.stop();
    }
  }

  beforeAll(async () => {
    sandbox = await createSandbox();
    await mkdir(join(sandbox.project, 'tool'));
    await writeFile(
      join(sandbox.project, 'main.js'),
      "const { greet } = require('./lib/greet');\nconsole.log(greet('cairn'));\n",
    );
    await writeFile(
      join(sandbox.project, 'tool/main.js'),
      "'use strict';\n\n// the tool's entry\nconst { greet } = require('./lib/greet');\nconsole.log(greet('tool'));\n",
    );
    await installInProject(sandbox, 'http://127.0.0.1:9', []);
  }, TIMEOUT);

  afterAll(async () => {
    for (const server of servers) await server.close();
    await sandbox?.cleanup();
  });

  it('learns a fix in one session and injects it after the same failure in the next', {
    timeout: TIMEOUT,
  }, async () => {
    const write =
      'mkdir -p lib && printf \'exports.greet = (name) => "hello " + name\\n\' > lib/greet.js';
    const bash = (command: string, afterResults: number) => ({
      tool: /^bash$/,
      input: { command, description: 'run it' },
      afterResults,
    });
    const first = await startModelServer({
      text: 'Fixed.',
      toolCalls: [bash('node main.js', 0), bash(write, 1), bash('node main.js', 2)],
    });
    servers.push(first);
    await session(first, 'Run the app and fix it if it fails.');
    const seen = first.requests.map((r) => r.text).join('\n');
    expect(seen).toContain("Cannot find module './lib/greet'");
    expect(seen).toContain('hello cairn');
    const [pattern] = listFixPatterns(sandbox.project);
    expect(pattern, await lifecycleErrors()).toMatchObject({
      state: 'candidate',
      commandFamily: 'node',
      steps: [{ kind: 'run', key: 'run:mkdir+printf' }],
    });

    const second = await startModelServer({
      text: 'Noted.',
      toolCalls: [bash('node tool/main.js', 0)],
    });
    servers.push(second);
    await session(second, 'Run the tool.');
    const injected = second.requests.find((r) => r.text.includes('Known fix for this error'));
    expect(injected, await lifecycleErrors()).toBeDefined();
    // The post-tool profile's pack: the candidate fix, named with its pattern and signature.
    expect(injected!.text).toContain('Candidate fix (not verified yet) for the error quoted below');
    expect(injected!.text).toContain(`pattern ${pattern!.id} signature ${pattern!.signature}`);
    expect(injected!.text).toContain("Cannot find module './lib/greet'");
  });
});
