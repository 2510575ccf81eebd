import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HarnessInstallReport } from '@cairn/core';
import { openCairn } from '@cairn/engine';
import { formatJson } from '@cairn/harness-kit';
import { createOpencodeHarness } from '../opencode-harness';

/**
 * Test support (not exported): a real OpenCode CLI in a throwaway HOME,
 * talking to a scripted model server. Shared by the e2e test and the
 * fixture capture script.
 */

const here = dirname(fileURLToPath(import.meta.url));
export const PACKAGE_DIR = resolve(here, '../..');
/** The version pinned in devDependencies (and declared as checkedVersion). */
export const OPENCODE_VERSION = '1.18.33';

/** The pinned CLI binary, or undefined when its platform package was not installed. */
export function opencodeBinary(): string | undefined {
  try {
    const require = createRequire(join(PACKAGE_DIR, 'package.json'));
    const bin = join(dirname(require.resolve('opencode-ai/package.json')), 'bin', 'opencode.exe');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** The Cairn CLI binary built in the monorepo (packages/cli/dist/bin.cjs). */
export function cairnBinary(): string {
  return resolve(PACKAGE_DIR, '../../packages/cli/dist/bin.cjs');
}

export interface Sandbox {
  home: string;
  project: string;
  /** Holds `cairn` (a link to the built CLI), first on PATH. */
  bin: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * One user's HOME and XDG dirs, with `pathDirs` first on PATH; returns the
 * environment to run `opencode` and `cairn` in. OpenCode runs `npm install
 * @opencode-ai/plugin` in its config folder on start unless node_modules is
 * there and the lockfile lists it: the local copy is linked in instead, so
 * nothing is downloaded.
 */
export async function createHome(
  home: string,
  pathDirs: string[],
): Promise<Record<string, string>> {
  const env = {
    PATH: [...pathDirs, process.env.PATH ?? ''].join(delimiter),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    // The plugin opens the project cold at the first prompt; on a loaded CI machine a plane's
    // first search can outlast the default 2 s and be left out (fail-open): give it room.
    CAIRN_MEMORY_PLANE_TIMEOUT_MS: '10000',
  };
  const configDir = join(env.XDG_CONFIG_HOME, 'opencode');
  await mkdir(join(configDir, 'node_modules/@opencode-ai'), { recursive: true });
  // The package exports no ./package.json and no require condition: link its folder.
  const pluginPackage = await realpath(join(PACKAGE_DIR, 'node_modules/@opencode-ai/plugin'));
  await symlink(pluginPackage, join(configDir, 'node_modules/@opencode-ai/plugin'), 'dir');
  const dependencies = { '@opencode-ai/plugin': OPENCODE_VERSION };
  await writeFile(join(configDir, 'package.json'), formatJson({ dependencies }));
  await writeFile(
    join(configDir, 'package-lock.json'),
    formatJson({ lockfileVersion: 3, packages: { '': { dependencies } } }),
  );
  return env;
}

/** A temp dir with a HOME (see createHome), an empty project and `cairn` on PATH. */
export async function createSandbox(): Promise<Sandbox> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-opencode-')));
  const home = join(base, 'home');
  const project = join(base, 'project');
  const bin = join(base, 'bin');
  await mkdir(project, { recursive: true });
  await mkdir(bin);
  // `cairn` on PATH, as after `npm i -g @cairn/cli`: the committed plugin loader finds it there.
  await symlink(cairnBinary(), join(bin, 'cairn'));
  const env = await createHome(home, [bin]);
  return {
    home,
    project,
    bin,
    env,
    // A detached child (deferred summary, code cache) may still be writing: retry ENOTEMPTY.
    cleanup: () => rm(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}

/**
 * The provider block pointing OpenCode at the model server (`url` without
 * /v1). With the `$schema` line OpenCode adds to an opencode.json that lacks
 * one, so a session leaves the committed file as it was.
 */
export function providerConfig(url: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted',
        options: { baseURL: `${url}/v1`, apiKey: 'test-key' },
        models: { model: { name: 'Scripted model', tool_call: true } },
      },
    },
    model: 'scripted/model',
    small_model: 'scripted/model',
  };
}

/**
 * A project as a user sets it up: `.cairn/` with `seeds`, their own
 * opencode.json (the scripted provider), then Cairn installed at project
 * scope naming `cairn` (on the sandbox's PATH).
 */
export async function installInProject(
  sandbox: Sandbox,
  modelUrl: string,
  seeds: string[],
): Promise<HarnessInstallReport> {
  const memory = await openCairn(sandbox.project, { env: {} });
  try {
    await memory.init();
    for (const text of seeds) await memory.add({ text });
  } finally {
    memory.closeWorking();
  }
  await writeFile(join(sandbox.project, 'opencode.json'), formatJson(providerConfig(modelUrl)));
  return createOpencodeHarness().install({
    scope: 'project',
    projectRoot: sandbox.project,
    homeDir: sandbox.home,
    dryRun: false,
    cairnCommand: ['cairn'],
    env: sandbox.env,
  });
}

export function childEnv(sandbox: Sandbox): NodeJS.ProcessEnv {
  return { ...process.env, ...sandbox.env, CAIRN_AGENT_ID: '' };
}

/** `opencode <args>` in the project, stdin closed (`run` reads a piped stdin as the message); resolves with stdout. */
export async function opencode(sandbox: Sandbox, args: string[]): Promise<string> {
  const child = spawn(opencodeBinary()!, args, {
    cwd: sandbox.project,
    env: childEnv(sandbox),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((done) => child.once('close', done));
  if (code !== 0) throw new Error(`opencode ${args[0]} exited ${code}: ${stderr.slice(-2000)}`);
  return stdout;
}

export interface OpencodeServer {
  url: string;
  stop(): Promise<void>;
}

/** `opencode serve` on a free port; resolves once it prints the URL it listens on. */
export async function startServer(sandbox: Sandbox): Promise<OpencodeServer> {
  const child: ChildProcess = spawn(opencodeBinary()!, ['serve', '--port', '0'], {
    cwd: sandbox.project,
    env: childEnv(sandbox),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = await new Promise<string>((found, fail) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) found(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`opencode serve exited (${code}): ${output}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs one prompt through the server (`opencode run --attach`); returns the session id. */
export async function runPrompt(sandbox: Sandbox, server: OpencodeServer, prompt: string) {
  const stdout = await opencode(sandbox, [
    'run',
    '--attach',
    server.url,
    '--format',
    'json',
    prompt,
  ]);
  const match = /"sessionID":"(ses_[^"]+)"/.exec(stdout);
  if (!match) throw new Error(`opencode run printed no session id: ${stdout.slice(0, 2000)}`);
  return match[1]!;
}

/** Compacts the session through the server API (what /compact does in the TUI). */
export async function compact(server: OpencodeServer, sessionId: string): Promise<void> {
  const response = await fetch(`${server.url}/session/${sessionId}/summarize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ providerID: 'scripted', modelID: 'model' }),
  });
  if (!response.ok)
    throw new Error(`summarize failed: ${response.status} ${await response.text()}`);
}

export async function deleteSession(server: OpencodeServer, sessionId: string): Promise<void> {
  const response = await fetch(`${server.url}/session/${sessionId}`, { method: 'DELETE' });
  if (!response.ok) throw new Error(`delete failed: ${response.status} ${await response.text()}`);
}
