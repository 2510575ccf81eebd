/** Runs the built `cairn` binary in a temp project with its own HOME (tests only). */
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The code cache (compile-cache.ts) goes outside the project, so tests that
 * check a command changed nothing under it do not see it; one folder per
 * user, shared by the runs, so they also start warm.
 */
const testCache = join(tmpdir(), `cairn-test-cache-${process.getuid?.() ?? 'user'}`);

function env(root: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const home = join(root, 'home');
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: testCache,
    // Each run answers its event itself: the hook server (hook-server/) has tests of its own.
    CAIRN_HOOK_SERVER: 'off',
    ...extra,
  };
}

/** `run` waits for the process; `start` lets several run at once. */
export function cliRunner(root: () => string, extraEnv: NodeJS.ProcessEnv = {}) {
  return {
    run(args: string[], input?: string | Uint8Array, moreEnv: NodeJS.ProcessEnv = {}): CliRun {
      const result = spawnSync(process.execPath, [bin, ...args], {
        cwd: root(),
        input,
        encoding: 'utf8',
        env: env(root(), { ...extraEnv, ...moreEnv }),
      });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    start(args: string[], input?: string, moreEnv: NodeJS.ProcessEnv = {}): Promise<CliRun> {
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [bin, ...args], {
          cwd: root(),
          env: env(root(), { ...extraEnv, ...moreEnv }),
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
        });
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
        });
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input ?? '');
      });
    },
  };
}
