// Drives one real OpenClaw session for the capture script and the e2e test:
// a temp HOME with a provider pointing at a scripted model server, a
// loopback gateway, one agent turn in a fresh session, a compaction, and a
// gateway shutdown (which ends the session).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24Path } from '@cairn/node24';

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function openclawBin() {
  // openclaw's exports do not list package.json: read it from the linked folder.
  const dir = join(packageDir, 'node_modules', 'openclaw');
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return join(dir, typeof bin === 'string' ? bin : bin.openclaw);
}

/** Whether the pinned CLI and a Node 24 to run it are here (the e2e test skips otherwise). */
export function openclawAvailable() {
  return (
    Boolean(node24Path()) &&
    existsSync(join(packageDir, 'node_modules', 'openclaw', 'openclaw.mjs'))
  );
}

export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** openclaw.json for a run against `modelUrl` (no /v1), with the given extra keys merged in. */
export async function writeOpenclawConfig(home, { modelUrl, workspace, extra = {} }) {
  const config = {
    models: {
      mode: 'merge',
      providers: {
        scripted: {
          baseUrl: `${modelUrl}/v1`,
          apiKey: 'dummy',
          api: 'openai-completions',
          models: [
            {
              id: 'scripted-1',
              name: 'Scripted',
              reasoning: false,
              input: ['text'],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: 128000,
              maxTokens: 4096,
            },
          ],
        },
      },
    },
    agents: { defaults: { model: { primary: 'scripted/scripted-1' }, workspace } },
    tools: { toolSearch: false },
    ...extra,
  };
  await mkdir(join(home, '.openclaw'), { recursive: true });
  await writeFile(join(home, '.openclaw', 'openclaw.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/** OpenClaw silences its output under a test runner: hide vitest's variables from it. */
export function harnessEnv(env) {
  const clean = { ...env };
  for (const key of Object.keys(clean))
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST') delete clean[key];
  return clean;
}

// stdout goes to a file: some commands (`mcp probe`) exit before a pipe drains.
async function run(args, { env, cwd }) {
  const dir = await mkdtemp(join(tmpdir(), 'openclaw-out-'));
  const out = await open(join(dir, 'stdout'), 'w+');
  try {
    const { code, stderr } = await new Promise((done, fail) => {
      const child = spawn(node24Path(), [openclawBin(), ...args], {
        env: harnessEnv(env),
        cwd,
        stdio: ['ignore', out.fd, 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stderr }));
    });
    return { code, stderr, stdout: await readFile(join(dir, 'stdout'), 'utf8') };
  } finally {
    await out.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `openclaw <args>`; throws with its output when it fails. */
export async function openclaw(args, options) {
  const result = await run(args, options);
  if (result.code !== 0) {
    throw new Error(
      `openclaw ${args.join(' ')} exited ${result.code}\n${result.stderr.slice(-3000)}`,
    );
  }
  return result;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Starts `openclaw gateway run` on a free loopback port; resolves once it logs `ready`. */
export async function startGateway({ env, cwd }) {
  const port = await freePort();
  const token = 'cairn-e2e-token';
  const child = spawn(
    node24Path(),
    [
      openclawBin(),
      'gateway',
      'run',
      '--bind',
      'loopback',
      '--port',
      String(port),
      '--auth',
      'token',
      '--allow-unconfigured',
    ],
    {
      env: harnessEnv({ ...env, OPENCLAW_GATEWAY_TOKEN: token }),
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  const exited = new Promise((done) => child.on('close', (code) => done(code)));
  await new Promise((done, fail) => {
    const onData = (chunk) => {
      log += chunk;
      if (/\[gateway\]\S* \S*ready/.test(log.replace(ANSI, ''))) done();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) =>
      fail(new Error(`gateway exited ${code} before ready\n${log.slice(-3000)}`)),
    );
  });
  const clientEnv = {
    ...env,
    OPENCLAW_GATEWAY_TOKEN: token,
    OPENCLAW_GATEWAY_URL: `ws://127.0.0.1:${port}`,
  };
  return {
    env: clientEnv,
    log: () => log,
    /** SIGTERM: the gateway drains active sessions (session_end, reason shutdown) and exits. */
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * One session: a turn in a new session key through the gateway (session_start,
 * before_prompt_build, tool calls, agent_end), then a second turn when
 * `followUp` is given, `sessions compact`, shutdown.
 */
export async function driveSession({ home, cwd, env, sessionKey, message, followUp }) {
  const base = {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
  const gateway = await startGateway({ env: base, cwd });
  try {
    const agentTurn = (text) =>
      openclaw(
        ['agent', '--agent', 'main', '--session-key', sessionKey, '--message', text, '--json'],
        { env: gateway.env, cwd },
      );
    const turn = await agentTurn(message);
    if (followUp) await agentTurn(followUp);
    const compact = await openclaw(['sessions', 'compact', sessionKey, '--json'], {
      env: gateway.env,
      cwd,
    });
    return {
      turn: JSON.parse(turn.stdout),
      compact: JSON.parse(compact.stdout),
      gatewayLog: gateway.log,
    };
  } catch (error) {
    error.message += `\n--- gateway log ---\n${gateway.log().replace(ANSI, '').slice(-6000)}`;
    throw error;
  } finally {
    await gateway.stop();
  }
}
